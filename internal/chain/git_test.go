package chain

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/ledger"
)

// repo makes a git repository on main with one commit.
func repo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	write(t, dir, "README", "x\n")
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "t"},
		{"config", "user.email", "t@example.invalid"}, {"add", "-A"}, {"commit", "-q", "-m", "init"}} {
		run(t, dir, args...)
	}
	return dir
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitOut(dir, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func write(t *testing.T, dir, name, data string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckTree: a work tree on a branch passes; a folder outside any,
// and a detached HEAD, are refused.
func TestCheckTree(t *testing.T) {
	dir := repo(t)
	if b, err := CheckTree(dir); err != nil || b != "main" {
		t.Errorf("CheckTree = %q, %v", b, err)
	}
	if _, err := CheckTree(t.TempDir()); !errors.Is(err, ErrNotTree) {
		t.Errorf("outside a tree: %v", err)
	}
	run(t, dir, "checkout", "-q", "--detach")
	if _, err := CheckTree(dir); !errors.Is(err, ErrDetached) {
		t.Errorf("detached: %v", err)
	}
}

// TestHandedOver finds a summary committed since the session's start,
// and nothing for a summary left uncommitted, one committed before the
// start or a commit elsewhere.
func TestHandedOver(t *testing.T) {
	dir := repo(t)
	start := run(t, dir, "rev-parse", "HEAD")
	write(t, dir, "a.go", "package a\n")
	run(t, dir, "add", "a.go")
	run(t, dir, "commit", "-q", "-m", "work")
	write(t, dir, relayDir+"/2026-11-20T101500Z.md", "# hand-over\n")
	if got, err := handedOver(dir, start); err != nil || got != "" {
		t.Errorf("an uncommitted summary: %q, %v", got, err)
	}
	run(t, dir, "add", ".claude")
	run(t, dir, "commit", "-q", "-m", "hand over")
	want := relayDir + "/2026-11-20T101500Z.md"
	if got, err := handedOver(dir, start); err != nil || got != want {
		t.Errorf("handedOver = %q, %v; want %q", got, err, want)
	}
	if got, _ := handedOver(dir, run(t, dir, "rev-parse", "HEAD")); got != "" {
		t.Errorf("a summary from before the start: %q", got)
	}
	// From a sub-folder the top's summaries count too.
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	if got, _ := handedOver(filepath.Join(dir, "sub"), start); got != want {
		t.Errorf("from a sub-folder: %q", got)
	}
}

// TestSnapshotProgress: the work tree outside .claude/ is what counts,
// committed or not, tracked or new; .claude/ anywhere is not; and the
// index is left as it was.
func TestSnapshotProgress(t *testing.T) {
	dir := repo(t)
	base, err := snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, ".claude/costs/sessions/2026-11/s1.json", "{}\n")
	write(t, dir, "sub/.claude/context-budget/relay/x.md", "x\n")
	write(t, dir, "tmp/context-budget/.gitignore", "*\n")
	write(t, dir, "tmp/context-budget/s1", "warn\n")
	run(t, dir, "add", ".claude")
	run(t, dir, "commit", "-q", "-m", "state only")
	same, err := snapshot(dir)
	if err != nil || same.work != base.work {
		t.Errorf("changes under .claude/ and ignored state count as progress: %v", err)
	}
	if same.head == base.head {
		t.Error("the head did not move")
	}
	for _, tc := range []struct {
		what   string
		change func()
		moved  bool
	}{
		{"a new file", func() { write(t, dir, "new.txt", "new\n") }, true},
		{"staged, the same content", func() { run(t, dir, "add", "new.txt") }, false},
		{"a file changed", func() { write(t, dir, "README", "changed\n") }, true},
		{"committed, the same content", func() { run(t, dir, "commit", "-q", "-am", "work") }, false},
		{"a file removed", func() { os.Remove(filepath.Join(dir, "new.txt")) }, true},
		{"a name like .claude", func() { write(t, dir, "sub/.claude.txt", "x\n") }, true},
		{"under .claude/ again", func() { write(t, dir, ".claude/context-budget/relay/y.md", "y\n") }, false},
	} {
		before, _ := snapshot(dir)
		tc.change()
		after, err := snapshot(dir)
		if err != nil {
			t.Fatal(err)
		}
		if moved := after.work != before.work; moved != tc.moved {
			t.Errorf("%s: progress %v, want %v", tc.what, moved, tc.moved)
		}
	}
	// The index is the repository's, untouched by the scratch copy.
	write(t, dir, "staged.txt", "s\n")
	run(t, dir, "add", "staged.txt")
	write(t, dir, "loose.txt", "l\n")
	if _, err := snapshot(dir); err != nil {
		t.Fatal(err)
	}
	if st := run(t, dir, "status", "--porcelain"); !strings.Contains(st, "A  staged.txt") || !strings.Contains(st, "?? loose.txt") {
		t.Errorf("the index changed: %q", st)
	}
}

// TestCommitRow commits the session's row alone, whatever else is staged
// or changed, and says so when there is no row.
func TestCommitRow(t *testing.T) {
	dir := repo(t)
	if note := commitRow(dir, "s1"); !strings.Contains(note, "no ledger row") {
		t.Errorf("no row: %q", note)
	}
	row := ledger.Row{SessionID: "s1", FirstResponseAt: "2026-11-20T10:00:00Z", Chain: "c1", Place: 1}
	name, err := ledger.Write(dir, &row)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "staged.txt", "s\n")
	run(t, dir, "add", "staged.txt")
	write(t, dir, "README", "changed\n")
	if note := commitRow(dir, "s1"); note != "" {
		t.Fatal(note)
	}
	if got := run(t, dir, "log", "-1", "--format=%s"); got != "ledger: row of s1" {
		t.Errorf("subject %q", got)
	}
	files := strings.Fields(run(t, dir, "show", "--format=", "--name-only", "HEAD"))
	rel, _ := filepath.Rel(dir, name)
	if !slices.Equal(files, []string{filepath.ToSlash(rel)}) {
		t.Errorf("the commit holds %q, want the row alone", files)
	}
	if st := run(t, dir, "status", "--porcelain"); !strings.Contains(st, "A  staged.txt") || !strings.Contains(st, "M README") {
		t.Errorf("the rest changed: %q", st)
	}
	if r := rowOf(dir, "s1"); r == nil || r.Chain != "c1" {
		t.Errorf("rowOf = %+v", r)
	}
}
