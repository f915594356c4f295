package chain

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

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

// ErrNoCommit reports a branch with no commit yet: a successor starts
// from the branch's head, and the runner commits the ledger rows on it.
var ErrNoCommit = errors.New("the branch has no commit yet")

// CheckTree checks that dir is in a git work tree whose HEAD is on a
// branch that has a commit, and returns the branch.
func CheckTree(dir string) (branch string, err error) {
	inside, err := gitOut(dir, nil, "rev-parse", "--is-inside-work-tree")
	if err != nil || inside != "true" {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("%w: git is not on PATH", ErrNotTree)
		}
		return "", ErrNotTree
	}
	if branch, err = currentBranch(dir); err != nil {
		return "", err
	}
	if _, err := gitOut(dir, nil, "rev-parse", "-q", "--verify", "HEAD^{commit}"); err != nil {
		return branch, ErrNoCommit
	}
	return branch, nil
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
	// work identifies what the work tree holds outside .claude/: each
	// file git tracks or would add (ignored ones not), by its name, mode,
	// size and modification time.
	work string
}

// snapshot takes the work tree's state. It reads names from git and the
// files' metadata from the file system, never their content: nothing is
// written to the repository (a large untracked file costs one lstat),
// and no filter or hook of the repository's runs. .claude/ anywhere in
// it is left out, where the hand-over summaries, the ledger rows and
// other state live.
func snapshot(dir string) (tree, error) {
	var t tree
	t.head, _ = gitOut(dir, nil, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	top := workTree(dir)
	names, err := gitRun(dir, nil, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--full-name", "--", ":/")
	if err != nil {
		return t, err
	}
	list := strings.Split(string(names), "\x00")
	slices.Sort(list)
	h := sha256.New()
	last := ""
	for _, name := range list {
		if name == "" || name == last || underClaude(name) {
			continue
		}
		last = name
		fmt.Fprintf(h, "%s\x00", name)
		if fi, err := os.Lstat(filepath.Join(top, filepath.FromSlash(name))); err == nil {
			fmt.Fprintf(h, "%o %d %d\x00", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		} else {
			fmt.Fprint(h, "gone\x00")
		}
	}
	t.work = hex.EncodeToString(h.Sum(nil))
	return t, nil
}

// underClaude reports whether a path of the work tree (slash-separated)
// lies under a folder named .claude.
func underClaude(name string) bool {
	dir, _ := path.Split(name)
	return slices.Contains(strings.Split(dir, "/"), ".claude")
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
	off, err := noFilters(dir)
	if err == nil {
		_, err = gitOut(dir, nil, append(off, "add", "--", name)...)
	}
	if err == nil {
		_, err = gitOut(dir, nil, append(off, "commit", "-q", "--no-verify", "-m", "ledger: row of "+session, "--only", "--", name)...)
	}
	if err != nil {
		return fmt.Sprintf("the ledger row of session %s is not committed: %v", session, err)
	}
	return ""
}

// gitGuard is the configuration every git command of the runner runs
// with, over the repository's own: the agent may have planted hooks, an
// fsmonitor program or a signing program in it, and the runner's git is
// the runner's, not the agent's. Hooks are looked for in a folder that
// cannot hold any; the other programs are turned off; no automatic
// housekeeping starts.
var gitGuard = []string{
	"-c", "core.hooksPath=" + os.DevNull,
	"-c", "core.fsmonitor=false",
	"-c", "core.untrackedCache=false",
	"-c", "commit.gpgSign=false",
	"-c", "tag.gpgSign=false",
	"-c", "log.showSignature=false",
	"-c", "gc.auto=0",
	"-c", "maintenance.auto=false",
}

// gitDeadline bounds each git command of the runner; past it the command
// is killed, so a repository that makes git hang cannot hold the chain.
var gitDeadline = 2 * time.Minute

// gitOut runs git in dir with env added to the process's, and returns
// its output trimmed; an error carries git's first line on stderr.
func gitOut(dir string, env []string, args ...string) (string, error) {
	out, err := gitRun(dir, env, args...)
	return strings.TrimSpace(string(out)), err
}

// gitRun runs git in dir, guarded (gitGuard) and under gitDeadline, with
// env added to the process's, and returns its output.
func gitRun(dir string, env []string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitDeadline)
	defer cancel()
	argv := append(append([]string{"-C", dir}, gitGuard...), args...)
	cmd := exec.CommandContext(ctx, "git", argv...)
	// GIT_OPTIONAL_LOCKS=0: a command that only reads never rewrites
	// the index; no prompt for a password can wait on a terminal.
	cmd.Env = append(append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0"), env...)
	cmd.WaitDelay = drain
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	verb := args[0]
	for i := 0; i+2 < len(args) && args[i] == "-c"; i += 2 {
		verb = args[i+2]
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("git %s: no answer within %v", verb, gitDeadline)
	}
	if err != nil {
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg == "" {
			return nil, fmt.Errorf("git %s: %w", verb, err)
		}
		return nil, fmt.Errorf("git %s: %s: %w", verb, msg, err)
	}
	return out, nil
}

// noFilters is the configuration that turns off every filter driver the
// repository's configuration defines (filter.<name>.clean, smudge,
// process): a command that reads a file into the repository (add,
// commit) would otherwise run the program a .gitattributes line names.
// Without a program a driver leaves content as it is.
func noFilters(dir string) ([]string, error) {
	out, err := gitRun(dir, nil, "config", "-z", "--name-only", "--get-regexp", `^filter\..*\.(clean|smudge|process|required)$`)
	if err != nil {
		// Exit status 1: no such key, nothing to turn off.
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return nil, nil
		}
		return nil, err
	}
	var args []string
	seen := map[string]bool{}
	for _, key := range strings.Split(string(out), "\x00") {
		i := strings.LastIndexByte(key, '.')
		if !strings.HasPrefix(key, "filter.") || i <= len("filter.") {
			continue
		}
		driver := key[len("filter."):i]
		if seen[driver] {
			continue
		}
		seen[driver] = true
		for _, v := range []string{"clean=", "smudge=", "process=", "required=false"} {
			args = append(args, "-c", "filter."+driver+"."+v)
		}
	}
	return args, nil
}
