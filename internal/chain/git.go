package chain

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/ledger"
)

// A chain hands over through git: a session handed over when it committed
// a hand-over summary on the branch, made progress when the work tree
// outside .claude/ changed, and its ledger row is committed alone.

// Where the relay skill writes the hand-over summaries, relative to the
// session's folder (and, for a session run in a sub-folder, to the top of
// the work tree).
const relayDir = ".claude/context-budget/relay"

// ErrNotTree reports a folder outside any git work tree.
var ErrNotTree = errors.New("not inside a git work tree")

// ErrDetached reports a work tree whose HEAD is on no branch: a successor
// takes the work up by the branch's name.
var ErrDetached = errors.New("HEAD is not on a branch")

// CheckTree checks that dir is in a git work tree whose HEAD is on a
// branch, and returns the branch.
func CheckTree(dir string) (branch string, err error) {
	inside, err := gitOut(dir, nil, "rev-parse", "--is-inside-work-tree")
	if err != nil || inside != "true" {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("%w: git is not on PATH", ErrNotTree)
		}
		return "", ErrNotTree
	}
	return currentBranch(dir)
}

// currentBranch is the branch HEAD is on.
func currentBranch(dir string) (string, error) {
	b, err := gitOut(dir, nil, "symbolic-ref", "--short", "-q", "HEAD")
	if err != nil || b == "" {
		return "", ErrDetached
	}
	return b, nil
}

// tree is the state of a work tree at a session's start or end.
type tree struct {
	// head is HEAD's commit, "" on a branch with no commit yet.
	head string
	// work is the id of the tree the work tree holds outside .claude/,
	// committed or not (untracked files included, ignored ones not).
	work string
}

// snapshot takes the work tree's state. The work tree's content is
// written as a git tree through a scratch copy of the index, so neither
// the index nor the branch is touched; .claude/ anywhere in it is left
// out, where the hand-over summaries, the ledger rows and other state
// live.
func snapshot(dir string) (tree, error) {
	var t tree
	t.head, _ = gitOut(dir, nil, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	index, err := gitOut(dir, nil, "rev-parse", "--git-path", "index")
	if err != nil {
		return t, err
	}
	if !filepath.IsAbs(index) {
		index = filepath.Join(dir, index)
	}
	scratch, err := os.CreateTemp("", "context-budget-index-")
	if err != nil {
		return t, err
	}
	name := scratch.Name()
	defer os.Remove(name)
	// The index is copied, not read into memory: its size is the work
	// tree's, and a scratch copy leaves the user's untouched.
	if src, _, err := reading.Open(index); err == nil {
		_, err = io.Copy(scratch, src)
		src.Close()
		if err != nil {
			scratch.Close()
			return t, err
		}
	}
	if err := scratch.Close(); err != nil {
		return t, err
	}
	env := []string{"GIT_INDEX_FILE=" + name}
	if _, err := gitOut(dir, env, "add", "-A", "--", ":/"); err != nil {
		return t, err
	}
	if _, err := gitOut(dir, env, "rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", ":(top,glob)**/.claude/**"); err != nil {
		return t, err
	}
	t.work, err = gitOut(dir, env, "write-tree")
	return t, err
}

// handedOver returns the newest hand-over summary committed since from
// (a commit; "" for the branch's whole history), "" when none was.
func handedOver(dir, from string) (string, error) {
	rev := "HEAD"
	if from != "" {
		rev = from + "..HEAD"
	}
	if _, err := gitOut(dir, nil, "rev-parse", "-q", "--verify", "HEAD^{commit}"); err != nil {
		return "", nil // no commit at all: nothing was handed over
	}
	out, err := gitOut(dir, nil, "log", "--format=", "--name-only", "--diff-filter=AM", rev, "--",
		":(top)"+relayDir, relayDir)
	if err != nil {
		return "", err
	}
	first, _, _ := strings.Cut(out, "\n")
	return strings.TrimSpace(first), nil
}

// rowOf reads the session's ledger row, written by its Stop hook under
// the folder it ran in (or the top of its work tree); nil when there is
// none.
func rowOf(dir, session string) *ledger.Row {
	name := rowFile(dir, session)
	if name == "" {
		return nil
	}
	data, err := reading.ReadFile(name, reading.MaxLedgerRow)
	var r ledger.Row
	if err == nil {
		r, err = ledger.Parse(data)
	}
	if err != nil {
		return nil
	}
	return &r
}

// rowFile is the path of the session's ledger row, "" when there is none.
func rowFile(dir, session string) string {
	for _, d := range candidates(dir) {
		found, _ := filepath.Glob(filepath.Join(ledger.Dir(d), "*", session+".json"))
		if len(found) > 0 {
			return found[0]
		}
	}
	return ""
}

// commitRow commits the session's ledger row alone, with the message
// "ledger: row of <id>", whatever else is staged; it returns what went
// wrong in words, "" when all went well.
func commitRow(dir, session string) string {
	name := rowFile(dir, session)
	if name == "" {
		return "no ledger row of session " + session + " to commit (its Stop hook wrote none)"
	}
	_, err := gitOut(dir, nil, "add", "--", name)
	if err == nil {
		_, err = gitOut(dir, nil, "commit", "-q", "-m", "ledger: row of "+session, "--only", "--", name)
	}
	if err != nil {
		return fmt.Sprintf("the ledger row of session %s is not committed: %v", session, err)
	}
	return ""
}

// gitOut runs git in dir with env added to the process's, and returns
// its output trimmed; an error carries git's first line on stderr.
func gitOut(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg == "" {
			return "", fmt.Errorf("git %s: %w", args[0], err)
		}
		return "", fmt.Errorf("git %s: %s: %w", args[0], msg, err)
	}
	return strings.TrimSpace(string(out)), nil
}
