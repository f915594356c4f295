package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/state"
)

// deadlineCase is one hook process on a session past the 400k pause line
// (fixed lines), in a project of its own. A call gets ten minutes to
// decide (testDeadlines), so what a test holds up (a lock, a child) is what ends
// the call's wait, never the machine's load; real sets the hook's own
// budgets for the calls that test the quiet deadline itself.
type deadlineCase struct {
	t                *testing.T
	root, transcript string
	env              []string
	real             bool
}

func newDeadlineCase(t *testing.T) *deadlineCase {
	t.Helper()
	root := t.TempDir()
	transcript := filepath.Join(root, "t.jsonl")
	if err := os.WriteFile(transcript, []byte(assistantLine("a", 100_000)+assistantLine("b", 412_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	return &deadlineCase{t: t, root: root, transcript: transcript,
		env: []string{testOnlyRunMain + "=1", "CLAUDE_PROJECT_DIR=", "MUTHUR_CONTEXT_BUDGET_LINES=fixed"}}
}

// run runs the hook once with the payload's fields and returns its
// stdout. A hook that has not answered in three minutes is killed and
// fails the test: every wait the test leaves it is bounded far below
// that.
func (c *deadlineCase) run(fields map[string]string) string {
	c.t.Helper()
	p := map[string]string{"hook_event_name": "PostToolUse", "session_id": "s1", "transcript_path": c.transcript, "cwd": c.root}
	for k, v := range fields {
		p[k] = v
	}
	payload, _ := json.Marshal(p)
	cmd := exec.Command(os.Args[0], "hook")
	cmd.Env = append(os.Environ(), c.env...)
	if c.real {
		cmd.Env = append(cmd.Env, testOnlyRealDeadlines+"=1")
	}
	cmd.Stdin = bytes.NewReader(payload)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	var killed atomic.Bool
	timer := time.AfterFunc(3*time.Minute, func() { killed.Store(true); cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	if killed.Load() {
		c.t.Fatalf("the hook had not answered after three minutes (stderr %q)", errOut.String())
	}
	if err != nil {
		c.t.Fatalf("hook: %v (stderr %q)", err, errOut.String())
	}
	if errOut.Len() > 0 {
		c.t.Errorf("hook wrote to stderr: %q", errOut.String())
	}
	return out.String()
}

// A <session>.lock held by a stuck process: the hook used to wait on
// flock forever. Now the call gives up by its quiet deadline while the
// lock is still held, silent and having recorded nothing, and once the
// lock is free the notice fires (issue 20, class 4 and 6).
func TestHookDeadlineStuckSessionLock(t *testing.T) {
	c := newDeadlineCase(t)
	dir := state.Dir(c.root)
	if err := state.Ensure(dir); err != nil {
		t.Fatal(err)
	}
	unlock, err := state.LockBy(filepath.Join(dir, "s1.lock"), time.Now().Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	// The lock is held until the call has returned: it returned by
	// giving up the wait, however loaded the machine.
	c.real = true
	out := c.run(nil)
	unlock()
	c.real = false
	if out != "" {
		t.Errorf("with the session's lock held: %q, want silence", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "s1")); !os.IsNotExist(err) {
		t.Errorf("a level was recorded though the call gave up: %v", err)
	}
	if out := c.run(nil); !strings.Contains(out, "past the 400k pause line") {
		t.Errorf("after the lock was freed: %q, want the pause", out)
	}
}

// A held <session>.operator.lock, after the level was recorded: the hook
// used to wait forever and the notice was lost for the climb. Now the
// operator's wait ends with its bound, the lock still held, and the
// notice goes out as it reads with no operator (issue 20, class 4).
func TestHookDeadlineStuckOperatorLock(t *testing.T) {
	c := newDeadlineCase(t)
	dir := state.Dir(c.root)
	if err := state.Ensure(dir); err != nil {
		t.Fatal(err)
	}
	unlock, err := state.LockBy(filepath.Join(dir, "s1.operator.lock"), time.Now().Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	out := c.run(nil)
	if !strings.Contains(out, "past the 400k pause line") || !strings.Contains(out, phraseAuto) {
		t.Errorf("with the operator's lock held: %q, want the pause, auto", out)
	}
	if rec := climb.Load(filepath.Join(dir, "s1")); rec.Level != climb.Pause {
		t.Errorf("recorded %+v, want the pause", rec)
	}
	if out := c.run(nil); out != "" {
		t.Errorf("the next call: %q, want silence (once per climb)", out)
	}
}

// An unknown tool_use_id (the wait for the record runs out) and an
// operator look-up that never answers: the call used to outlive its
// total budget (issue 20, class 6). Now the operator's child is given up
// while it still runs, and the notice goes out with no operator; the
// next call, nothing due, gives up its wait and is silent.
func TestHookDeadlineStuckOperatorChild(t *testing.T) {
	c := newDeadlineCase(t)
	bin := t.TempDir()
	// The child runs until the test ends: the call's answer is what
	// its bounded wait for the child gives.
	stuck := "#!/bin/sh\nexec sleep 3600\n"
	if err := os.WriteFile(filepath.Join(bin, "context-budget-operator"), []byte(stuck), 0o755); err != nil {
		t.Fatal(err)
	}
	c.env = append(c.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out := c.run(map[string]string{"tool_use_id": "toolu_never_written"})
	if !strings.Contains(out, "past the 400k pause line") || !strings.Contains(out, phraseAuto) {
		t.Errorf("with the operator stuck: %q, want the pause, auto", out)
	}
	if cached, err := os.ReadFile(filepath.Join(state.Dir(c.root), "s1.operator")); err != nil || string(cached) != "\n" {
		t.Errorf("the operator recorded: %q, %v; want none, the look-up given up", cached, err)
	}
	if out := c.run(map[string]string{"tool_use_id": "toolu_never_written"}); out != "" {
		t.Errorf("nothing due: %q, want silence", out)
	}
}

// Hostile payloads through the hook process: each is silence, decided by
// the call itself (it has ten minutes: the deadline cannot be what
// silenced it), in at most 8 MiB of peak memory over the same binary's
// peak on an ordinary payload (the test binary is far larger than the
// program, so its own peak is not the program's), which a payload
// decoded whole would pass by 60 MiB. A 60 MB session_id used to cost
// 132 MiB (issue 20, class 10); a non-string agent_id used to let the
// notice through (class 8).
// What such a payload costs in time is
// BenchmarkReadPayloadHostile's (make bench).
func TestHookHostilePayloads(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 60 MB payloads")
	}
	big := strings.Repeat("a", 60<<20)
	// peak runs the hook on payload and gives its peak memory, after
	// checking that it was silent and recorded nothing.
	peak := func(t *testing.T, payload func(c *deadlineCase) string) int64 {
		t.Helper()
		c := newDeadlineCase(t)
		hwm := filepath.Join(t.TempDir(), "hwm")
		cmd := exec.Command(os.Args[0], "hook")
		cmd.Env = append(os.Environ(), append(c.env, testOnlyHWM+"="+hwm)...)
		cmd.Stdin = strings.NewReader(payload(c))
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("hook: %v (stderr %q)", err, errOut.String())
		}
		if out.Len() > 0 || errOut.Len() > 0 {
			t.Errorf("stdout %.80q, stderr %q; want silence", out.String(), errOut.String())
		}
		if _, err := os.Stat(filepath.Join(state.Dir(c.root), "s1")); !os.IsNotExist(err) {
			t.Errorf("a hostile payload recorded a level: %v", err)
		}
		return peakOf(t, hwm)
	}
	// An ordinary payload with nothing due: the binary's own peak.
	base := peak(t, func(c *deadlineCase) string {
		return `{"session_id":"s1","transcript_path":"` + c.transcript + `","cwd":"` + c.root + `","agent_id":"a1"}`
	})
	t.Logf("an ordinary call's peak: %.1f MiB", float64(base)/(1<<20))
	for _, tc := range []struct {
		name    string
		payload func(c *deadlineCase) string
	}{
		{"a 60 MB session_id", func(c *deadlineCase) string {
			return `{"session_id":"` + big + `","transcript_path":"` + c.transcript + `","cwd":"` + c.root + `"}`
		}},
		{"a 60 MB cwd", func(c *deadlineCase) string {
			return `{"session_id":"s1","transcript_path":"` + c.transcript + `","cwd":"` + big + `"}`
		}},
		{"a 60 MB transcript_path", func(c *deadlineCase) string {
			return `{"session_id":"s1","transcript_path":"` + big + `","cwd":"` + c.root + `"}`
		}},
		{"a 60 MB escaped agent_id", func(c *deadlineCase) string {
			return `{"session_id":"s1","transcript_path":"` + c.transcript + `","cwd":"` + c.root + `","agent_id":"` + strings.Repeat(`\"`, 30<<20) + `"}`
		}},
		{"an agent_id object", func(c *deadlineCase) string {
			return `{"session_id":"s1","transcript_path":"` + c.transcript + `","cwd":"` + c.root + `","agent_id":{"id":"` + big[:1<<20] + `"}}`
		}},
		{"an agent_id number", func(c *deadlineCase) string {
			return `{"session_id":"s1","transcript_path":"` + c.transcript + `","cwd":"` + c.root + `","agent_id":7}`
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rss := peak(t, tc.payload); rss > base+8<<20 {
				t.Errorf("peak memory %.1f MiB, %.1f MiB over an ordinary call's; want at most 8 MiB over", float64(rss)/(1<<20), float64(rss-base)/(1<<20))
			}
		})
	}
}
