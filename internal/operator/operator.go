package operator

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/sibling"
	"github.com/muthur/context-budget/internal/state"
)

// Command is the name of the program that looks the operator up.
const Command = "context-budget-operator"

// ChildTimeout bounds the child's wall time: its request times out after
// 1.5 s, and a child still running past this is killed and counts as no
// operator.
const ChildTimeout = 2 * time.Second

// OperatorBy returns the session's operator, "" for none, looking it up
// with lookup at most once per session: the answer, none included, is
// kept in <dir>/<session>.operator. The look-up runs under a lock on
// <dir>/<session>.operator.lock, so hooks that fire notices at the same
// moment wait for one answer instead of asking twice, and can never record
// two different answers. A recorded answer is read without the lock. An
// answer that cannot be recorded is still returned.
//
// The wait for the lock and the look-up both end by deadline (the
// look-up gets it as its context's). A lock still held then (a stuck
// hook, a planted lock) means no operator for this call, and the default
// applies: the caller has already recorded the level, and its notice
// must still go out.
func OperatorBy(dir, session string, deadline time.Time, lookup func(ctx context.Context) string) string {
	if !state.PlainName(session) {
		return ""
	}
	// The answer is written whole (a temp file and a rename), so it can
	// be read without the lock: once it is there, as on every notice
	// after a session's first, the folder check and the lock are spared.
	name := filepath.Join(dir, session+state.OperatorSuffix)
	if login, ok := cached(name); ok {
		return login
	}
	if err := state.Ensure(dir); err != nil {
		return ""
	}
	unlock, err := state.LockBy(name+state.LockSuffix, deadline)
	if err != nil {
		return ""
	}
	defer unlock()
	if login, ok := cached(name); ok {
		return login
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	// A look-up cut short by the deadline is "no operator", kept like
	// any other answer (design §7: a timeout means no operator).
	login := lookup(ctx)
	if !PlainLogin(login) {
		login = ""
	}
	state.WriteFile(name, []byte(login+"\n"))
	return login
}

// cached reads a recorded answer; ok is false when there is none yet. A
// record that is not a plain login reads as no operator.
func cached(name string) (login string, ok bool) {
	data, err := reading.ReadFile(name, reading.MaxSideFile)
	if err != nil {
		return "", false
	}
	login = strings.TrimSpace(string(data))
	if !PlainLogin(login) {
		return "", true
	}
	return login, true
}

// LookupContext runs the context-budget-operator command and returns the
// login it prints, or "" on any failure: not found, a non-zero exit, no
// answer within ctx's deadline and ChildTimeout, output that is not a
// plain login.
func LookupContext(ctx context.Context) string {
	path, err := childPath()
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, ChildTimeout)
	defer cancel()
	return RunChild(ctx, path)
}

// RunChild runs the program at path with no arguments until ctx is done
// and returns the login it prints, or "".
func RunChild(ctx context.Context, path string) string {
	cmd := exec.CommandContext(ctx, path)
	out := &capped{max: 256}
	cmd.Stdout = out
	// A grandchild (gh auth token) holding the pipe must not keep us.
	cmd.WaitDelay = 100 * time.Millisecond
	if err := cmd.Run(); err != nil || out.over {
		return ""
	}
	login := strings.TrimSpace(out.buf.String())
	if !PlainLogin(login) {
		return ""
	}
	return login
}

// childPath finds the command beside the running executable, where make
// install and go install put both, else on PATH.
func childPath() (string, error) {
	return sibling.Find(Command)
}

// capped keeps at most max bytes and notes that more came.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		c.over = true
		return len(p), nil
	}
	return c.buf.Write(p)
}
