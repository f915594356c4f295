package cli

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/skills"
)

// repoRoot walks up from the test's folder to go.mod.
func repoRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestPluginPackaging checks the plugin and marketplace files agree with
// each other and register the same hooks install does, by name from PATH.
func TestPluginPackaging(t *testing.T) {
	root := repoRoot(t)
	var plugin struct {
		Name, Version, Description string
	}
	readJSON(t, filepath.Join(root, pluginDir, ".claude-plugin", "plugin.json"), &plugin)
	if !regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`).MatchString(plugin.Name) || plugin.Name != settings.Name {
		t.Errorf("plugin name %q: want %q, kebab-case", plugin.Name, settings.Name)
	}
	var market struct {
		Name    string
		Owner   struct{ Name string }
		Plugins []struct {
			Name, Source, Version string
		}
	}
	readJSON(t, filepath.Join(root, ".claude-plugin", "marketplace.json"), &market)
	if market.Name == "" || market.Owner.Name == "" || len(market.Plugins) != 1 {
		t.Fatalf("marketplace needs a name, an owner and our one plugin: %+v", market)
	}
	if p := market.Plugins[0]; p.Name != plugin.Name || p.Source != "./"+pluginDir || p.Version != plugin.Version {
		t.Errorf("marketplace entry %+v does not match plugin.json (%s %s) at ./%s", p, plugin.Name, plugin.Version, pluginDir)
	}

	data, err := os.ReadFile(filepath.Join(root, pluginDir, "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Each hook runs the program only when it is on PATH; what it runs
	// then is a registration of ours.
	if n := bytes.Count(data, []byte(pluginGuard)); n != 7 {
		t.Errorf("hooks.json guards %d commands, want 7: every one but the start-of-session message", n)
	}
	o, err := settings.Parse(bytes.ReplaceAll(data, []byte(pluginGuard), nil))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := settings.Registered(o)
	if err != nil {
		t.Fatal(err)
	}
	got := map[settings.Role]string{}
	for _, e := range entries {
		got[e.Role] = e.Exe
	}
	roles := []settings.Role{settings.PostToolUse, settings.Stop, settings.UserPromptSubmit, settings.SessionStart,
		settings.PreToolUse, settings.StopFuse, settings.SubagentStop}
	for _, r := range roles {
		if got[r] != "context-budget" {
			t.Errorf("hooks.json: %s runs %q, want context-budget from PATH", r.Event, got[r])
		}
	}
	if len(entries) != len(roles) {
		t.Errorf("hooks.json registers %d of ours, want %d: %+v", len(entries), len(roles), entries)
	}
}

// pluginGuard opens each of the plugin's hook commands: without the
// program on PATH the hook exits 0 in silence, not "not found".
const pluginGuard = "command -v context-budget >/dev/null 2>&1 || exit 0; exec "

// pluginDir is the plugin's folder in the repository, the marketplace's
// source: Claude Code copies that folder, following its links, and
// nothing else of the clone (no bin/, no sources).
const pluginDir = "plugin"

// TestPluginHoldsOnlyThePlugin: the plugin's folder holds its manifest,
// its hooks, its licence and a link to each skill in skills/ (their one
// home) and nothing more, so an install from a built clone copies no
// build output.
func TestPluginHoldsOnlyThePlugin(t *testing.T) {
	root := repoRoot(t)
	want := []string{".claude-plugin/plugin.json", "LICENSE", "hooks/hooks.json"}
	for _, sk := range skills.All() {
		want = append(want, "skills/"+sk.Name)
		link := filepath.Join(root, pluginDir, "skills", sk.Name)
		target, err := os.Readlink(link)
		if err != nil || filepath.Clean(filepath.Join(filepath.Dir(link), target)) != filepath.Join(root, "skills", sk.Name) {
			t.Errorf("%s: %q, %v; want a link to skills/%s", link, target, err, sk.Name)
		}
	}
	var got []string
	filepath.WalkDir(filepath.Join(root, pluginDir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(root, pluginDir), p)
		got = append(got, filepath.ToSlash(rel))
		return nil
	})
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the plugin's folder holds %q, want %q", got, want)
	}
	if data, err := os.ReadFile(filepath.Join(root, pluginDir, "LICENSE")); err != nil || len(data) == 0 {
		t.Errorf("the plugin's LICENSE does not read: %v", err)
	}
}

// TestPluginNamesInstallCommand: the plugin's SessionStart check names the
// same install command doctor does.
func TestPluginNamesInstallCommand(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), pluginDir, "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), InstallCommand) {
		t.Errorf("%s/hooks/hooks.json does not name %q", pluginDir, InstallCommand)
	}
}
