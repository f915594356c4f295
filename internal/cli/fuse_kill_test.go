package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/fuse"
)

// TestFuseStatusAfterKills: armed hook calls killed at any point of their
// work (kill -9) leave the fuse's state whole, so budget status reads it
// after every one. A tally written in place was left empty by a call
// killed between creating it and writing it, and then no call could read
// it: the fuse denied every call and status failed (issue 40). Half the
// calls are a new session's first, killed the moment its tally appears;
// the others are one session's, killed across one call's whole run as
// timed on this machine before. What is asserted is only that status
// reads, and that a call after them decides.
func TestFuseStatusAfterKills(t *testing.T) {
	if testing.Short() {
		t.Skip("200 killed hook calls")
	}
	const runs = 200
	home, proj := t.TempDir(), t.TempDir()
	transcript := filepath.Join(home, ".claude", "projects", "p", "s1.jsonl")
	if err := os.MkdirAll(filepath.Dir(transcript), 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	respond := func() {
		n++
		f, err := os.OpenFile(transcript, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		// Figures of every width, so that a tally can shrink as well as
		// grow from one write to the next.
		fmt.Fprintf(f, `{"type":"assistant","timestamp":"2026-11-30T05:%02d:%02d.000Z","sessionId":"s1","message":{"id":"msg_%d","model":"claude-opus-4-6","usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":1000,"output_tokens":%d}}}`+"\n",
			n/60%60, n%60, n, (n*7919)%100000, (n*104729)%1000)
		f.Close()
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CLAUDE") && !strings.HasPrefix(kv, "MUTHUR_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	env = append(env, testOnlyRunMain+"=1", "HOME="+home, "MUTHUR_CONTEXT_BUDGET_SPEND=500usd")
	hook := func(session string) *exec.Cmd {
		payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": session, "transcript_path": transcript,
			"cwd": proj, "tool_name": "Bash", "tool_input": map[string]string{"command": "ls"}})
		cmd := exec.Command(os.Args[0], "hook")
		cmd.Env, cmd.Stdin = env, bytes.NewReader(payload)
		return cmd
	}
	getenv := func(k string) string { return map[string]string{"HOME": home}[k] }
	// budget status reads the state as fuse.ReadStatus does; it runs in
	// this process after each kill, and as the program after them all.
	status := func(session string) error {
		_, err := fuse.ReadStatus(fuse.Target{Root: proj, ID: session, Transcript: transcript, Getenv: getenv, Now: time.Now()})
		return err
	}
	// One whole call, to spread the kills over.
	respond()
	start := time.Now()
	if out, err := hook("s1").CombinedOutput(); err != nil {
		t.Fatalf("an armed call: %v\n%s", err, out)
	}
	whole := time.Since(start)
	tally := filepath.Join(fuse.Dir(getenv, proj), "%s"+fuse.SpendSuffix)
	for i := range runs {
		respond()
		session := "s1"
		if i%2 == 0 {
			session = fmt.Sprintf("k%d", i)
		}
		cmd := hook(session)
		done := make(chan struct{})
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { cmd.Wait(); close(done) }()
		if session == "s1" {
			time.Sleep(whole * time.Duration(i%50) / 50)
		} else {
			name := fmt.Sprintf(tally, session)
		watch:
			for {
				select {
				case <-done:
					break watch
				default:
				}
				if _, err := os.Lstat(name); err == nil {
					break
				}
			}
		}
		cmd.Process.Kill()
		<-done
		if err := status(session); err != nil {
			t.Fatalf("after %d killed calls, the status of %s: %v", i+1, session, err)
		}
	}
	cmd := exec.Command(os.Args[0], "budget", "status", "--session", "s1", "--project", proj)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("budget status after the kills: %v\n%s", err, out)
	}
	// A call after them decides: the state is whole for the hook too.
	respond()
	if out, err := hook("s1").CombinedOutput(); err != nil || strings.Contains(string(out), "cannot decide") {
		t.Fatalf("a call after the kills: %v\n%s", err, out)
	}
}
