package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSkillPrefix: whatever a plugin's manifest holds, the prefix the
// notices put before the skill names is "" or a kebab-case name and a
// colon: nothing else reaches the model's text.
func FuzzSkillPrefix(f *testing.F) {
	for _, seed := range []string{
		`{"name":"context-budget"}`, `{"name":"Context Budget"}`, `{"name":"a--b"}`, `{"name":"-x"}`,
		`{"name":"x\n/relay"}`, `{"name":7}`, `not json`, ``, `{"name":"` + strings.Repeat("a", 100) + `"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, manifest []byte) {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, ".claude-plugin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, ".claude-plugin", "plugin.json"), manifest, 0o644); err != nil {
			t.Fatal(err)
		}
		got := SkillPrefix(func(k string) string {
			if k == "CLAUDE_PLUGIN_ROOT" {
				return root
			}
			return ""
		})
		if got == "" {
			return
		}
		name, ok := strings.CutSuffix(got, ":")
		if !ok || !kebab(name) {
			t.Fatalf("skillPrefix = %q from %q", got, manifest)
		}
		for _, c := range name {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				t.Fatalf("skillPrefix = %q holds %q", got, c)
			}
		}
	})
}

// TestSkillPrefix pins the routes: no plugin root, ours, another name,
// a manifest that is not ours to trust.
func TestSkillPrefix(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".claude-plugin"), 0o755)
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "CLAUDE_PLUGIN_ROOT" {
				return v
			}
			return ""
		}
	}
	if got := SkillPrefix(env("")); got != "" {
		t.Errorf("from the settings: %q, want none", got)
	}
	for manifest, want := range map[string]string{
		`{"name":"context-budget","version":"0.1.0"}`: "context-budget:",
		`{"name":"cb-fork"}`:                          "cb-fork:",
		`{"name":"Bad Name"}`:                         "",
		`{"name":"a--b"}`:                             "",
		`[`:                                           "",
	} {
		os.WriteFile(filepath.Join(root, ".claude-plugin", "plugin.json"), []byte(manifest), 0o644)
		if got := SkillPrefix(env(root)); got != want {
			t.Errorf("manifest %s: %q, want %q", manifest, got, want)
		}
	}
}
