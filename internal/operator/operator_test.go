package operator

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/state"
)

func TestOperatorLooksUpOncePerSession(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tmp", "context-budget")
	var calls atomic.Int32
	lookup := func() string {
		calls.Add(1)
		time.Sleep(20 * time.Millisecond) // let the others pile up on the lock
		return "octocat"
	}
	var wg sync.WaitGroup
	got := make([]string, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = Operator(dir, "s1", lookup)
		}()
	}
	wg.Wait()
	for i, login := range got {
		if login != "octocat" {
			t.Errorf("call %d: Operator = %q, want octocat", i, login)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("lookups = %d, want 1", n)
	}
	if login := Operator(dir, "s2", func() string { calls.Add(1); return "" }); login != "" {
		t.Errorf("another session: Operator = %q, want none", login)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("lookups after a second session = %d, want 2", n)
	}
}

func TestOperatorCachesNone(t *testing.T) {
	dir := t.TempDir()
	calls := 0
	for range 5 {
		if login := Operator(dir, "s1", func() string { calls++; return "" }); login != "" {
			t.Fatalf("Operator = %q, want none", login)
		}
	}
	if calls != 1 {
		t.Errorf("lookups = %d, want 1 (none is an answer too)", calls)
	}
}

func TestOperatorRejectsBadAnswers(t *testing.T) {
	dir := t.TempDir()
	if login := Operator(dir, "s1", func() string { return "../../etc" }); login != "" {
		t.Errorf("Operator with a path for a login = %q, want none", login)
	}
	// A damaged record reads as none, without a second look-up.
	if err := os.WriteFile(filepath.Join(dir, "s2.operator"), []byte("Not/A Login\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if login := Operator(dir, "s2", func() string { t.Error("looked up despite a record"); return "x" }); login != "" {
		t.Errorf("Operator with a damaged record = %q, want none", login)
	}
	if login := Operator(dir, "../s3", func() string { t.Error("looked up for a bad session id"); return "x" }); login != "" {
		t.Errorf("Operator with a bad session id = %q, want none", login)
	}
}

// script writes an executable shell script and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts")
	}
	p := filepath.Join(t.TempDir(), "child")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunChild(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{"a login", "echo octocat", "octocat"},
		{"padded", "printf '  mona_acme \\n'", "mona_acme"},
		{"nothing", "exit 1", ""},
		{"a login but failing", "echo octocat; exit 1", ""},
		{"not a login", "echo 'Octo Cat'", ""},
		{"too much", "yes octocat | head -c 100000", ""},
	} {
		if got := RunChild(context.Background(), script(t, tc.body)); got != tc.want {
			t.Errorf("%s: RunChild = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := RunChild(context.Background(), filepath.Join(t.TempDir(), "missing")); got != "" {
		t.Errorf("missing program: RunChild = %q, want none", got)
	}
}

// TestOperatorAnswerBesideAHeldLock: an answer already recorded is read
// without the lock, so a lock held elsewhere (a stuck hook, a planted lock
// file) neither delays the notice nor takes its operator away.
func TestOperatorAnswerBesideAHeldLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tmp", "context-budget")
	if login := Operator(dir, "s1", func() string { return "octocat" }); login != "octocat" {
		t.Fatalf("first call: Operator = %q, want octocat", login)
	}
	unlock, err := state.LockBy(filepath.Join(dir, "s1"+state.OperatorSuffix+state.LockSuffix), time.Now().Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	// A deadline already passed: a call that waited for the lock would
	// give up and answer none.
	login := OperatorBy(dir, "s1", time.Now(), func(context.Context) string {
		t.Error("looked up again with an answer recorded")
		return ""
	})
	if login != "octocat" {
		t.Errorf("with the lock held: Operator = %q, want the recorded octocat", login)
	}
}

// Operator is OperatorBy with ChildTimeout from now, and a look-up that
// takes no context.
func Operator(dir, session string, lookup func() string) string {
	return OperatorBy(dir, session, time.Now().Add(ChildTimeout), func(context.Context) string { return lookup() })
}
