// Package reading takes a session's reading: how many tokens of context its
// last request carried, from the tail of its transcript (design §3).
//
// The transcript is read backwards from its end in blocks, so the cost
// depends on how far from the end the last response sits, not on the size
// of the file. Claude Code writes the transcript asynchronously, so a hook
// that knows its call's tool_use_id waits, bounded, for the record that
// made the call before it reads.
package reading

import (
	"bytes"
	"errors"
	"io"
	"time"

	"github.com/muthur/context-budget/internal/transcript"
)

// Reading is the context the session's last request carried.
type Reading struct {
	// Tokens is input + cache read + cache write of the last main-chain
	// response: the context that request sent.
	Tokens int64
	// Model is the model that served it, RequestedModel what Claude Code
	// asked for (2.1.332 writes it, e.g. "claude-opus-4-6[1m]").
	Model          string
	RequestedModel string
	// Version is the Claude Code version that wrote it.
	Version string
	// MessageID identifies the response.
	MessageID string
	// Usage is that response's usage as written.
	Usage transcript.Usage
	// Time is the record's timestamp as written (RFC 3339): when the
	// response landed, which the cold-cache check measures idle time from.
	Time string
}

// Limits of the tail scan. A line longer than MaxLine is skipped unread: an
// assistant record that long is a pathological case, and holding it would
// break the hook's memory budget. Past MaxBack bytes from the end the scan
// gives up.
const (
	MaxLine    = 4 << 20
	MaxBack    = 256 << 20
	firstBlock = 8 << 10
)

// ErrNoReading reports a transcript with no qualifying response within
// MaxBack bytes of its end.
var ErrNoReading = errors.New("no main-chain response with usage in the transcript's tail")

// Options tune Read.
type Options struct {
	// ToolUseID is the payload's tool_use_id. When set, Read waits for the
	// response record holding that tool_use block to reach the file.
	ToolUseID string
	// Wait bounds that wait; after it Read uses what is on disk.
	Wait time.Duration
	// Poll is the interval between looks at the file while waiting.
	Poll time.Duration
	// Subagent reads a subagent's own transcript, whose records are all
	// sidechain: its last response with usage is the reading (design §16).
	Subagent bool
}

// DefaultOptions are the hook's: wait up to one second, looking every 3 ms.
func DefaultOptions(toolUseID string) Options {
	return Options{ToolUseID: toolUseID, Wait: time.Second, Poll: 3 * time.Millisecond}
}

// Read returns the reading of the transcript at path.
func Read(path string, opt Options) (Reading, error) {
	r, _, err := read(path, opt)
	return r, err
}

// read is Read; seen reports whether the response holding the call's
// tool_use block was found, which ends the wait before its bound.
func read(path string, opt Options) (r Reading, seen bool, err error) {
	f, fi, err := Open(path)
	if err != nil {
		return Reading{}, false, err
	}
	defer f.Close()
	size := fi.Size()
	r, seen, err = last(f, size, opt.ToolUseID, opt.Subagent)
	if opt.ToolUseID == "" || seen {
		return r, seen, err
	}
	deadline := time.Now().Add(opt.Wait)
	for time.Now().Before(deadline) {
		time.Sleep(opt.Poll)
		fi, serr := f.Stat()
		if serr != nil || fi.Size() == size {
			continue
		}
		size = fi.Size()
		if r, seen, err = last(f, size, opt.ToolUseID, opt.Subagent); seen {
			break
		}
	}
	return r, seen, err
}

// Last finds the last qualifying response in the first size bytes of f.
// With a toolUseID it also reports whether the last response (any of its
// records: a response with parallel tool calls writes one record per
// block) holds that tool_use block.
func Last(f io.ReaderAt, size int64, toolUseID string) (r Reading, seen bool, err error) {
	return last(f, size, toolUseID, false)
}

// last is Last; subagent takes sidechain responses too (Options.Subagent).
func last(f io.ReaderAt, size int64, toolUseID string, subagent bool) (r Reading, seen bool, err error) {
	var needle []byte
	if toolUseID != "" {
		needle = []byte(`"` + toolUseID + `"`)
	}
	found := false
	var recs []candidate
	rec := newRecord()
	// Only lines holding the word "assistant" as a JSON string can hold a
	// response: inside a string its quotes would be escaped. Filtering on
	// it lets the scan stream past multi-megabyte tool results.
	err = scanBack(f, size, []byte(transcript.AssistantWord), func(line []byte) bool {
		// A damaged line may hold several records, which each passes in
		// file order; they are taken last first, like the lines.
		recs = recs[:0]
		rec.each(line, func() {
			if rec.isResponse(subagent) {
				recs = append(recs, candidate{r: rec.reading(), has: needle != nil && bytes.Contains(rec.content, needle)})
			}
		})
		for i := len(recs) - 1; i >= 0; i-- {
			c := recs[i]
			if found && c.r.MessageID != r.MessageID {
				return false // an earlier response: the last one is done
			}
			if !found {
				found, r = true, c.r
			}
			seen = seen || c.has
			if needle == nil || seen {
				return false
			}
		}
		return true
	})
	if err == nil && !found {
		err = ErrNoReading
	}
	return r, seen, err
}

// candidate is a response record of a line: its reading, and whether it
// holds the call's tool_use block.
type candidate struct {
	r   Reading
	has bool
}

// ScanBack calls fn with each line of the first size bytes of f, from the
// last line to the first, until fn returns false, the start of the file, or
// MaxBack bytes. Lines longer than MaxLine are skipped. The final line is
// passed even without a newline; if half-written, it fails to decode and is
// skipped like any damaged line. fn must not keep line.
func ScanBack(f io.ReaderAt, size int64, fn func(line []byte) bool) error {
	return scanBack(f, size, nil, fn)
}

// The scan reads firstBlock bytes from the end, then block bytes at a
// time. A line is held only when it fits in the block it ends in; a longer
// one is searched for the filter block by block as the scan passes it,
// and read again whole (if it matched and fits MaxLine) once its start is
// found. A 3 MB tool result then costs one pass of reads through a 64 KB
// buffer, not a buffer of its size.
const block = 64 << 10

// scanBack is ScanBack passing only the lines that contain filter (all
// lines when filter is nil).
func scanBack(f io.ReaderAt, size int64, filter []byte, fn func(line []byte) bool) error {
	// Each read takes over bytes more, already seen, from the block after
	// it, so that a filter split across two blocks is still seen.
	over := int64(max(len(filter)-1, 0))
	buf := make([]byte, min(size, firstBlock)+over)
	end, matched := size, filter == nil // the line being found ends at end
	var pos int64
	var chunk []byte
	// emit passes the line from start to end, if it is one to pass.
	emit := func(start int64) (bool, error) {
		if !matched || start == end || end-start > MaxLine {
			return true, nil
		}
		if end-pos <= int64(len(chunk)) && start >= pos {
			return fn(chunk[start-pos : end-pos]), nil
		}
		line := make([]byte, end-start)
		if _, err := f.ReadAt(line, start); err != nil && err != io.EOF {
			return false, err
		}
		return fn(line), nil
	}
	for pos = size; pos > 0 && size-pos < MaxBack; {
		if pos < size && int64(len(buf)) < block+over {
			buf = make([]byte, block+over)
		}
		n := min(int64(len(buf))-over, pos)
		pos -= n
		chunk = buf[:min(n+over, size-pos)]
		if _, err := f.ReadAt(chunk, pos); err != nil && err != io.EOF {
			return err
		}
		for hi := int(n); ; {
			i := lastNewline(chunk[:hi])
			if !matched && end-pos-int64(i+1) <= MaxLine {
				matched = bytes.Contains(chunk[i+1:min(int64(len(chunk)), end-pos)], filter)
			}
			if i < 0 {
				break
			}
			if more, err := emit(pos + int64(i) + 1); !more {
				return err
			}
			end, matched, hi = pos+int64(i), filter == nil, i
		}
	}
	if pos == 0 {
		_, err := emit(0)
		return err
	}
	return nil
}

// lastNewline is bytes.LastIndexByte(b, '\n'), which walks back a byte at
// a time: a block inside a long line, with no newline, is passed at the
// speed of the vectorised IndexByte instead.
func lastNewline(b []byte) int {
	if bytes.IndexByte(b, '\n') < 0 {
		return -1
	}
	return bytes.LastIndexByte(b, '\n')
}
