package settings

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCompactWindow holds the pinned CLI's resolution of autoCompactWindow:
// files from the user's up, a file's per-model value over its top-level
// one, a later per-model value adding to earlier ones, a later top-level
// value replacing them all, and what the schema drops setting nothing.
func TestCompactWindow(t *testing.T) {
	for _, tc := range []struct {
		name               string
		user, project, loc string
		model              string
		want               int64
		from               string
	}{
		{"nothing", "", "", "", "claude-opus-4-6", 0, ""},
		{"top level", `{"autoCompactWindow": 150000}`, "", "", "claude-opus-4-6", 150_000, "user"},
		{"per model over top level", `{"autoCompactWindow": 150000, "modelSettings": {"claude-opus-4-6": {"autoCompactWindow": 120000}}}`, "", "",
			"claude-opus-4-6-20260101", 120_000, "user"},
		{"per model for another model", `{"autoCompactWindow": 150000, "modelSettings": {"claude-sonnet-4-6": {"autoCompactWindow": 120000}}}`, "", "",
			"claude-opus-4-6[1m]", 150_000, "user"},
		{"a later file's per-model adds", `{"modelSettings": {"claude-opus-4-6": {"autoCompactWindow": 120000}}}`,
			`{"modelSettings": {"claude-sonnet-4-6": {"autoCompactWindow": 130000}}}`, "", "claude-opus-4-6", 120_000, "user"},
		{"a later top level replaces earlier per-model", `{"modelSettings": {"claude-opus-4-6": {"autoCompactWindow": 120000}}}`,
			"", `{"autoCompactWindow": 180000}`, "claude-opus-4-6", 180_000, "local"},
		{"auto per model", `{"autoCompactWindow": 150000, "modelSettings": {"claude-opus-4-6": {"autoCompactWindow": "auto"}}}`, "", "",
			"claude-opus-4-6", 0, "user"},
		{"under the minimum sets nothing", `{"autoCompactWindow": 150000}`, `{"autoCompactWindow": 50000}`, "", "claude-opus-4-6", 150_000, "user"},
		{"not a number sets nothing", `{"autoCompactWindow": 150000}`, `{"autoCompactWindow": "big"}`, "", "claude-opus-4-6", 150_000, "user"},
		{"a file that does not parse", `{"autoCompactWindow": 150000}`, `{not json`, "", "claude-opus-4-6", 150_000, "user"},
	} {
		dir := t.TempDir()
		config, root := filepath.Join(dir, "config"), filepath.Join(dir, "root")
		files := map[string]string{"user": File(User, config, root), "project": File(Project, config, root), "local": File(Local, config, root)}
		for scope, body := range map[string]string{"user": tc.user, "project": tc.project, "local": tc.loc} {
			if body == "" {
				continue
			}
			os.MkdirAll(filepath.Dir(files[scope]), 0o755)
			if err := os.WriteFile(files[scope], []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, from := CompactWindow(config, root, tc.model)
		if got != tc.want || (tc.from != "" && from != files[tc.from]) {
			t.Errorf("%s: %d from %s, want %d from %s", tc.name, got, from, tc.want, files[tc.from])
		}
	}
}

func TestCanonicalModel(t *testing.T) {
	for in, want := range map[string]string{
		"claude-opus-4-6":           "claude-opus-4-6",
		"claude-opus-4-6[1m]":       "claude-opus-4-6",
		"Claude-Opus-4-5-20251101":  "claude-opus-4-5",
		"claude-haiku-4-5-20251001": "claude-haiku-4-5",
	} {
		if got := CanonicalModel(in); got != want {
			t.Errorf("CanonicalModel(%q) = %q, want %q", in, got, want)
		}
	}
}
