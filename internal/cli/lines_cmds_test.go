package cli

import (
	"os"
	"path/filepath"
	"time"

	"github.com/muthur/context-budget/internal/settings"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdSlugDir sets $SLUGDIR to the folder Claude Code keeps the transcripts
// of the project at DIR in: slugdir DIR.
func cmdSlugDir(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: slugdir DIR")
	}
	ts.Setenv("SLUGDIR", filepath.Join(ts.Getenv("HOME"), ".claude", "projects", settings.ProjectSlug(args[0])))
}

// cmdTouchOld sets a file's times an hour back: touchold FILE.
func cmdTouchOld(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: touchold FILE")
	}
	old := time.Now().Add(-time.Hour)
	ts.Check(os.Chtimes(ts.MkAbs(args[0]), old, old))
}
