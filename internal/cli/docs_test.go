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
