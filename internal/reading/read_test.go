package reading

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReadWaits checks the wait for the call's record: a record appended
// while Read polls is the reading; one that never comes leaves the reading
// on disk after the bounded wait; no id reads at once.
func TestReadWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, lines(resp("m1", 100, 1, "t1")), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := Options{ToolUseID: "t2", Wait: 400 * time.Millisecond, Poll: time.Millisecond}

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
	start := time.Now()
	r, err := Read(path, opt)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err != nil || r.Tokens != 200 {
		t.Errorf("record appended after 30 ms: reading %d, %v; want 200", r.Tokens, err)
	}
	if d := time.Since(start); d >= opt.Wait {
		t.Errorf("Read took %v, as long as the whole wait", d)
	}

	opt.ToolUseID = "t9"
	start = time.Now()
	r, err = Read(path, opt)
	if d := time.Since(start); err != nil || r.Tokens != 200 || d < opt.Wait {
		t.Errorf("a record that never comes: reading %d, %v after %v; want 200 after the %v wait", r.Tokens, err, d, opt.Wait)
	}

	opt.ToolUseID = ""
	start = time.Now()
	if r, err := Read(path, opt); err != nil || r.Tokens != 200 || time.Since(start) > opt.Wait/2 {
		t.Errorf("no tool_use id: reading %d, %v after %v; want 200 at once", r.Tokens, err, time.Since(start))
	}

	if _, err := Read(filepath.Join(t.TempDir(), "none.jsonl"), opt); err == nil {
		t.Error("a missing transcript read without error")
	}
}
