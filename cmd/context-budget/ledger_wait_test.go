package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

const (
	waitFirst = `{"type":"assistant","sessionId":"s","timestamp":"2026-05-01T10:00:01Z","message":{"id":"m1","model":"claude-opus-4-6","content":[{"type":"text","text":"Reading."}],"usage":{"input_tokens":10,"output_tokens":5}}}` + "\n"
	waitFinal = `{"type":"assistant","sessionId":"s","timestamp":"2026-05-01T10:00:09Z","message":{"id":"m2","model":"claude-opus-4-6","content":[{"type":"text","text":"All done:\n  the parser is fixed."}],"usage":{"input_tokens":10,"output_tokens":50}}}` + "\n"
)

// TestWaitForFinal: the Stop hook waits for the turn's final response when
// Claude Code has not written it yet, and gives up after stopWait.
func TestWaitForFinal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(waitFirst), 0o644)
	go func() {
		time.Sleep(60 * time.Millisecond)
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(waitFinal)
		f.Close()
	}()
	start := time.Now()
	if !waitForFinal(path, "All done: the parser is fixed.") {
		t.Fatal("the final response was not seen")
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("returned after %v, before the record was written", d)
	}
	start = time.Now()
	if waitForFinal(path, "something else entirely") {
		t.Error("a text never written was seen")
	}
	if d := time.Since(start); d < stopWait || d > stopWait+500*time.Millisecond {
		t.Errorf("gave up after %v, want about %v", d, stopWait)
	}
	start = time.Now()
	if !waitForFinal(path, "") || time.Since(start) > 10*time.Millisecond {
		t.Error("an empty text was waited for")
	}
}
