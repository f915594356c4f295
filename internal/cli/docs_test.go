package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/tuning"
)

// TestDocsNameEverything keeps the manual and the README true to the
// program: every command has its topic in the manual, and every variable
// the program reads is in the manual's and the README's tuning tables.
func TestDocsNameEverything(t *testing.T) {
	for _, c := range commands {
		if c.topic == "" {
			continue
		}
		if !slices.Contains(topics, c.topic) || topic(c.topic) == "" {
			t.Errorf("command %s: no topic %q in the manual", c.name, c.topic)
		}
	}
	for _, name := range topics {
		if !strings.HasPrefix(topic(name), "# ") {
			t.Errorf("topic %s: no help/%s.md opening with its title", name, name)
		}
	}
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	manual := topic("tuning") + topic("budget")
	for _, v := range tuning.Variables {
		if !strings.Contains(manual, "    "+v+" ") {
			t.Errorf("the manual's tuning table lacks %s", v)
		}
		if !strings.Contains(string(readme), "| `"+v+"` |") {
			t.Errorf("the README's tuning table lacks %s", v)
		}
	}
}

// TestSecurityNamesRealTests: every test help security names exists, a
// script in testdata/script or a test or fuzz function of the module, so
// the topic cannot point at what is not there.
func TestSecurityNamesRealTests(t *testing.T) {
	text := topic("security")
	root := repoRoot(t)
	var funcs strings.Builder
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, "_test.go") {
			data, _ := os.ReadFile(path)
			funcs.Write(data)
		}
		return nil
	})
	named := 0
	parts := strings.Split(text, "`")
	for i := 1; i < len(parts); i += 2 {
		name := parts[i]
		switch {
		case strings.HasSuffix(name, ".txtar"):
			named++
			if _, err := os.Stat(filepath.Join("testdata", "script", name)); err != nil {
				t.Errorf("help security names %s: %v", name, err)
			}
		case strings.HasPrefix(name, "Test") || strings.HasPrefix(name, "Fuzz"):
			named++
			if !strings.Contains(funcs.String(), "func "+name+"(") {
				t.Errorf("help security names %s: no such test", name)
			}
		}
	}
	if named < 30 {
		t.Errorf("help security names %d tests", named)
	}
}
