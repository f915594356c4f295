package chain

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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

// TestCheckTreeNoCommit: a repository whose branch has no commit yet is
// refused, naming the branch.
func TestCheckTreeNoCommit(t *testing.T) {
	dir := t.TempDir()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	run(t, dir, "init", "-q", "-b", "trunk")
	if b, err := CheckTree(dir); !errors.Is(err, ErrNoCommit) || b != "trunk" {
		t.Errorf("CheckTree = %q, %v; want trunk, ErrNoCommit", b, err)
	}
}

// TestGitIsTheRunners: hooks, an fsmonitor program, a signing program
// and a filter driver planted in the repository never run in the
// runner's own git commands (a snapshot, the hand-over's search, the
// row's commit), and the commit is made all the same.
func TestGitIsTheRunners(t *testing.T) {
	dir := repo(t)
	ran := filepath.Join(t.TempDir(), "ran")
	plant := "#!/bin/sh\necho \"$0 $*\" >> " + ran + "\ncat\n"
	hooks := filepath.Join(dir, ".git", "hooks")
	for _, h := range []string{"pre-commit", "commit-msg", "post-commit", "reference-transaction", "post-index-change", "prepare-commit-msg"} {
		write(t, hooks, h, plant)
		os.Chmod(filepath.Join(hooks, h), 0o755)
	}
	write(t, dir, "planted.sh", plant)
	os.Chmod(filepath.Join(dir, "planted.sh"), 0o755)
	prog := filepath.Join(dir, "planted.sh")
	for _, kv := range [][2]string{{"core.fsmonitor", prog}, {"gpg.program", prog}, {"commit.gpgSign", "true"},
		{"filter.evil.clean", prog}, {"filter.evil.smudge", prog}, {"filter.evil.required", "true"}, {"log.showSignature", "true"}} {
		run(t, dir, "config", kv[0], kv[1])
	}
	write(t, dir, ".gitattributes", "* filter=evil\n")
	row := ledger.Row{SessionID: "s1", FirstResponseAt: "2026-11-20T10:00:00Z"}
	if _, err := ledger.Write(dir, &row); err != nil {
		t.Fatal(err)
	}
	start, err := snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := handedOver(dir, start.head); err != nil {
		t.Fatal(err)
	}
	if note := commitRow(dir, "s1"); note != "" {
		t.Fatal(note)
	}
	if got := run(t, dir, "log", "-1", "--format=%s", "--no-show-signature"); got != "ledger: row of s1" {
		t.Errorf("the row's commit: %q", got)
	}
	if data, err := os.ReadFile(ran); err == nil {
		t.Errorf("planted programs ran:\n%s", data)
	}
}

// TestSnapshotStoresNothing: a large untracked file adds nothing to the
// repository's objects.
func TestSnapshotStoresNothing(t *testing.T) {
	dir := repo(t)
	objects := func() int64 {
		var n int64
		filepath.Walk(filepath.Join(dir, ".git", "objects"), func(_ string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				n += fi.Size()
			}
			return nil
		})
		return n
	}
	before := objects()
	big := make([]byte, 8<<20)
	for i := range big {
		big[i] = byte(i * 7919 >> 3)
	}
	if err := os.WriteFile(filepath.Join(dir, "build.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := snapshot(dir)
	if err != nil || a.work != b.work {
		t.Errorf("two snapshots of one tree differ: %v", err)
	}
	if grew := objects() - before; grew != 0 {
		t.Errorf("the objects grew by %d bytes", grew)
	}
}

// TestGitDeadline: a git command that does not end by its deadline is
// killed, and says so.
func TestGitDeadline(t *testing.T) {
	dir := repo(t)
	was := gitDeadline
	gitDeadline = 500 * time.Millisecond
	defer func() { gitDeadline = was }()
	_, err := gitOut(dir, nil, "-c", "alias.hang=!sleep 30", "hang")
	if err == nil || !strings.Contains(err.Error(), "git hang: no answer within") {
		t.Errorf("a hanging git: %v", err)
	}
}
