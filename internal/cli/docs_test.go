package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/fuse"
)

// TestDocsNameEverything keeps the manual and the README true to the
// program: every command of the table is in the manual's list, and every
// variable the program reads is in the manual's and the README's tuning
// tables.
func TestDocsNameEverything(t *testing.T) {
	m := manual()
	for _, c := range commands {
		if !strings.Contains(m, "\n\t"+c.name+" ") {
			t.Errorf("the manual's command list lacks %q", c.name)
		}
	}
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range append(slices.Clone(config.Variables), fuse.Variables...) {
		if !strings.Contains(m, "\n\t"+v+" ") {
			t.Errorf("the manual's tuning table lacks %s", v)
		}
		if !strings.Contains(string(readme), "| `"+v+"` |") {
			t.Errorf("the README's tuning table lacks %s", v)
		}
	}
}

// TestHelpTopicsExist keeps `help TOPIC` working: every section the command
// table and the topics name is a heading of the manual.
func TestHelpTopicsExist(t *testing.T) {
	m := manual()
	for _, c := range commands {
		if c.section != "" && section(m, c.section) == "" {
			t.Errorf("command %s: the manual has no section %q", c.name, c.section)
		}
	}
	for _, tp := range topics {
		if section(m, tp.section) == "" {
			t.Errorf("topic %s: the manual has no section %q", tp.name, tp.section)
		}
	}
}
