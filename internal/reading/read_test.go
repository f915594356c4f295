package reading

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReadWaits checks the wait for the call's record: a record appended
// while Read polls ends the wait and is the reading; one that never comes
// leaves the reading on disk once the bounded wait is over; no id reads
// at once, whatever the bound.
func TestReadWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, lines(resp("m1", 100, 1, "t1")), 0o644); err != nil {
		t.Fatal(err)
	}
	// A bound no loaded machine reaches: the record ends the wait.
	opt := Options{ToolUseID: "t2", Wait: time.Minute, Poll: time.Millisecond}

	done := make(chan error, 1)
	go func() {
		time.Sleep(30 * time.Millisecond)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err == nil {
			// The record lands in two writes, as a slow writer's would.
			rec := lines(resp("m2", 200, 2, "t2"))
			f.Write(rec[:50])
			time.Sleep(10 * time.Millisecond)
			_, err = f.Write(rec[50:])
			f.Close()
		}
		done <- err
	}()
	r, seen, err := read(path, opt)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err != nil || r.Tokens != 200 || !seen {
		t.Errorf("record appended while waiting: reading %d, seen %v, %v; want 200, seen", r.Tokens, seen, err)
	}

	opt.ToolUseID, opt.Wait = "t9", 20*time.Millisecond
	if r, seen, err := read(path, opt); err != nil || r.Tokens != 200 || seen {
		t.Errorf("a record that never comes: reading %d, seen %v, %v; want 200 after the wait", r.Tokens, seen, err)
	}

	// Were this to wait, the test would run into its timeout.
	opt.ToolUseID, opt.Wait = "", time.Hour
	if r, err := Read(path, opt); err != nil || r.Tokens != 200 {
		t.Errorf("no tool_use id: reading %d, %v; want 200 at once", r.Tokens, err)
	}

	if _, err := Read(filepath.Join(t.TempDir(), "none.jsonl"), opt); err == nil {
		t.Error("a missing transcript read without error")
	}
}
