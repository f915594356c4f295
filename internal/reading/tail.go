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
	// From, when not 0, is the mark of an earlier call of the same session
	// (ReadMarked): the start of a line at or before the response this
	// call waits for. Where the transcript ends behind a long line, the
	// response holding ToolUseID is looked for forward from there first
	// (lastForward), so that the long line need not be crossed. The
	// answer is then the message's, but may be an earlier record of it
	// than the backward scan's last: the same tokens, model and version,
	// not always the same Usage.OutputTokens or Time.
	From int64
}

// DefaultOptions are the hook's: wait up to one second, looking every 3 ms.
func DefaultOptions(toolUseID string) Options {
	return Options{ToolUseID: toolUseID, Wait: time.Second, Poll: 3 * time.Millisecond}
}

// Read returns the reading of the transcript at path.
func Read(path string, opt Options) (Reading, error) {
	r, _, err := ReadMarked(path, opt)
	return r, err
}

// ReadMarked is Read, also returning the reading's mark: the offset of the
// line holding its record, for the session's next call (Options.From).
func ReadMarked(path string, opt Options) (Reading, int64, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return Reading{}, 0, err
	}
	defer f.Close()
	r, seen, at, err := last(f, size, opt.ToolUseID, opt.From)
	if opt.ToolUseID == "" || seen {
		return r, at, err
	}
	deadline := time.Now().Add(opt.Wait)
	for time.Now().Before(deadline) {
		time.Sleep(opt.Poll)
		now, serr := f.Size()
		if serr != nil || now == size {
			continue
		}
		size = now
		r, seen, at, err = last(f, size, opt.ToolUseID, opt.From)
		if seen {
			break
		}
	}
	return r, at, err
}

// Last finds the last qualifying response in the first size bytes of f.
// With a toolUseID it also reports whether the last response (any of its
// records: a response with parallel tool calls writes one record per
// block) holds that tool_use block.
func Last(f io.ReaderAt, size int64, toolUseID string) (r Reading, seen bool, err error) {
	r, seen, _, err = last(f, size, toolUseID, 0)
	return r, seen, err
}

// errLongLine stops a backward scan at a long line (scanBack's long).
var errLongLine = errors.New("a long line")

// last is Last from the mark from (Options.From), also returning the
// offset of the line holding r's record.
//
// With a mark and a tool_use_id, a backward scan that meets a long line
// before any response (the transcript ends with the call's own
// multi-megabyte tool result, behind the response that made the call)
// stops there, and the response is looked for forward from the mark
// instead. The forward answer stands only when the last response it finds
// holds the call's tool_use block: then it is the response the backward
// scan would reach past the long line, because Claude Code writes no
// response of the main chain between a tool call and that call's
// PostToolUse hook (the model has not had the tool's result), and the
// lines after the long line, read backwards, hold none. Its reading is
// the message's: a message's records agree on every figure the hook
// reads. Otherwise the backward scan runs again through the long line.
func last(f io.ReaderAt, size int64, toolUseID string, from int64) (r Reading, seen bool, at int64, err error) {
	var needle []byte
	if toolUseID != "" {
		needle = []byte(`"` + toolUseID + `"`)
	}
	found := false
	// A damaged line may hold several records, which Decode passes in file
	// order; they are taken last first, like the lines.
	var line []candidate
	// Only lines holding the word "assistant" as a JSON string can hold a
	// response: inside a string its quotes would be escaped. Filtering on
	// it lets the scan stream past multi-megabyte tool results.
	visit := func(text []byte, lineAt int64) bool {
		line = responses(text, needle, line[:0])
		for i := len(line) - 1; i >= 0; i-- {
			c := line[i]
			if found && c.r.MessageID != r.MessageID {
				return false // an earlier response: the last one is done
			}
			if !found {
				found, r, at = true, c.r, lineAt
			}
			seen = seen || c.has
			if needle == nil || seen {
				return false
			}
		}
		return true
	}
	var long func() bool
	if needle != nil && from > 0 && from < size {
		long = func() bool { return found }
	}
	err = scanBack(f, size, []byte(transcript.AssistantWord), long, visit)
	if err == errLongLine {
		if fr, fat, ok := lastForward(f, from, size, needle); ok {
			return fr, true, fat, nil
		}
		found, seen, r, at = false, false, Reading{}, 0
		err = scanBack(f, size, []byte(transcript.AssistantWord), nil, visit)
	}
	if err == nil && !found {
		err = ErrNoReading
	}
	return r, seen, at, err
}

// responses appends the response records of a transcript line to line, in
// file order, each with whether it holds needle.
func responses(text, needle []byte, line []candidate) []candidate {
	if fr, content, resp, ok := fastRecord(text); ok {
		if resp {
			line = append(line, candidate{r: fr, has: needle != nil && bytes.Contains(content, needle)})
		}
		return line
	}
	return decodeSlow(text, needle, line)
}

// The forward look reads the lines from the mark into a buffer of
// firstBlock bytes, doubled up to forwardBlock while no response holding
// the call's block has been read and a line does not fit; it reads at
// most forwardMax bytes. From the mark, in a session at work, the
// previous call's response, its tool's result and this call's response
// are a few KB.
const (
	forwardBlock = 64 << 10
	forwardMax   = 1 << 20
)

// lastForward reads the whole lines of f from from (a line start) towards
// size, and returns the last response among them and its line's offset;
// ok only when that response holds needle. It stops at a line that does
// not fit its buffer, with the response holding needle read, or past
// forwardBlock without it; or after forwardMax bytes.
func lastForward(f io.ReaderAt, from, size int64, needle []byte) (r Reading, at int64, ok bool) {
	buf := make([]byte, min(firstBlock, size-from))
	filter := []byte(transcript.AssistantWord)
	pos, n := from, 0 // buf[:n] holds the bytes of f from pos not yet taken
	found, seen := false, false
	var line []candidate
	for pos+int64(n) < size && pos-from < forwardMax {
		if n == len(buf) {
			// A line longer than the buffer: past the call's response it
			// ends the look; before it, the buffer grows.
			if found && seen || len(buf) >= forwardBlock {
				break
			}
			buf = append(buf, make([]byte, len(buf))...)
		}
		m, err := f.ReadAt(buf[n:min(int64(len(buf)), size-pos)], pos+int64(n))
		n += m
		if err != nil && err != io.EOF || m == 0 {
			break
		}
		taken := 0
		for {
			i := bytes.IndexByte(buf[taken:n], '\n')
			if i < 0 {
				break
			}
			text := buf[taken : taken+i]
			if containsWord(text, filter) {
				line = responses(text, needle, line[:0])
				for _, c := range line {
					if !found || c.r.MessageID != r.MessageID {
						seen = false
					}
					found, r, at = true, c.r, pos+int64(taken)
					seen = seen || c.has
				}
			}
			taken += i + 1
		}
		copy(buf, buf[taken:n])
		pos, n = pos+int64(taken), n-taken
	}
	return r, at, found && seen
}

// candidate is a response record of a line: its reading, and whether it
// holds the call's tool_use block.
type candidate struct {
	r   Reading
	has bool
}

// decodeSlow appends the responses among the records of a line, decoded
// by transcript.Decode (damaged lines included), to line.
func decodeSlow(text, needle []byte, line []candidate) []candidate {
	transcript.Decode(text, func(rec *transcript.Record) {
		if !rec.IsResponse() {
			return
		}
		u := rec.Message.Usage
		line = append(line, candidate{
			r: Reading{Tokens: u.Context(), Model: rec.Message.Model,
				RequestedModel: rec.RequestedModel, Version: rec.Version, MessageID: rec.Message.ID, Usage: *u,
				Time: rec.Timestamp},
			has: needle != nil && bytes.Contains(rec.Message.Content, needle),
		})
	})
	return line
}

// ScanBack calls fn with each line of the first size bytes of f, from the
// last line to the first, until fn returns false, the start of the file, or
// MaxBack bytes. Lines longer than MaxLine are skipped. The final line is
// passed even without a newline; if half-written, it fails to decode and is
// skipped like any damaged line. fn must not keep line.
func ScanBack(f io.ReaderAt, size int64, fn func(line []byte) bool) error {
	return scanBack(f, size, nil, nil, func(line []byte, _ int64) bool { return fn(line) })
}

// Streaming past long lines. A line that has grown past dropAfter bytes
// is not held: its bytes are only searched for the filter, block by block,
// and read again whole (if it matched and fits MaxLine) once its start is
// found. A 3 MB tool result then costs one pass of reads in dropBlock
// pieces and a 128 KB buffer, not a buffer of its size. Small blocks
// matter in a fresh process: every page of a larger buffer is a page
// fault, which cost more than the extra reads.
const (
	dropAfter = 64 << 10
	dropBlock = 64 << 10
)

// scanBack is ScanBack passing only the lines that contain filter (all
// lines when filter is nil; then long lines are held, not streamed), and
// with each line its offset in f. When long is not nil, it is asked once
// the line being assembled has reached firstBlock bytes: false stops the
// scan there, with errLongLine.
func scanBack(f io.ReaderAt, size int64, filter []byte, long func() bool, fn func(line []byte, at int64) bool) error {
	var b backBuffer
	pos := size
	skipping := false // the line being assembled is too long to keep
	// dropping: the line being assembled is streamed, not held; it ends
	// at lineEnd, and matched says whether the filter was seen in it. Its
	// first len(filter)-1 bytes read so far stay in the buffer, so that a
	// filter split across two blocks is still seen.
	dropping, matched := false, false
	var lineEnd int64
	block := int64(firstBlock)
	for pos > 0 && size-pos < MaxBack {
		// Double the window while a long line is assembled, but never past
		// MaxLine+1 bytes: one more byte than a line may have is enough to
		// know the line is too long, and keeps the buffer within the
		// memory budget.
		n := max(block, int64(len(b.data())))
		if dropping {
			n = dropBlock
		}
		n = min(n, pos, int64(MaxLine+1-len(b.data())))
		pos -= n
		chunk := b.prepend(int(n))
		if _, err := f.ReadAt(chunk, pos); err != nil && err != io.EOF {
			return err
		}
		data := b.data()
		end := len(data)
		for {
			i := lastNewline(data[:end])
			if i < 0 {
				break
			}
			line := data[i+1 : end]
			end = i
			if skipping {
				skipping = false
				continue
			}
			if dropping {
				dropping = false
				start := pos + int64(i) + 1
				if !matched && !containsWord(line, filter) || lineEnd-start > MaxLine {
					continue
				}
				whole, err := readWhole(f, start, lineEnd)
				if err != nil {
					return err
				}
				if !fn(whole, start) {
					return nil
				}
				continue
			}
			if len(line) > 0 && len(line) <= MaxLine && (filter == nil || containsWord(line, filter)) && !fn(line, pos+int64(i)+1) {
				return nil
			}
		}
		head := data[:end]
		if long != nil && end >= firstBlock && !skipping && !dropping {
			if !long() {
				return errLongLine
			}
			long = nil
		}
		switch {
		case skipping:
			b.keep(0)
		case dropping || (filter != nil && end > dropAfter):
			if !dropping {
				dropping, matched, lineEnd = true, false, pos+int64(end)
			}
			matched = matched || containsWord(head, filter)
			if lineEnd-pos > MaxLine {
				dropping, skipping = false, true
				b.keep(0)
			} else {
				b.keep(min(end, len(filter)-1))
			}
		default:
			b.keep(end)
			if end > MaxLine {
				b.keep(0)
				skipping = true
			}
		}
	}
	if pos == 0 && !skipping {
		switch {
		case dropping:
			if matched {
				whole, err := readWhole(f, 0, lineEnd)
				if err != nil {
					return err
				}
				fn(whole, 0)
			}
		case len(b.data()) > 0 && (filter == nil || containsWord(b.data(), filter)):
			fn(b.data(), 0)
		}
	}
	return nil
}

// lastNewline is bytes.LastIndexByte(b, '\n'), fast on long lines: that
// one walks back byte by byte, which made it most of the cost of crossing
// a multi-megabyte tool result. Here the vectorised forward IndexByte
// tests 4 KB windows from the end, and only the window holding the last
// newline is walked.
func lastNewline(b []byte) int {
	const window = 4 << 10
	for end := len(b); end > 0; end -= window {
		start := max(0, end-window)
		if bytes.IndexByte(b[start:end], '\n') >= 0 {
			return start + bytes.LastIndexByte(b[start:end], '\n')
		}
	}
	return -1
}

// readWhole reads the bytes of f from start to end.
func readWhole(f io.ReaderAt, start, end int64) ([]byte, error) {
	buf := make([]byte, end-start)
	if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
		return nil, err
	}
	return buf, nil
}

// backBuffer holds the bytes read so far that do not yet form a whole line,
// and grows towards the front, so that prepending earlier bytes of a long
// line costs amortised linear time.
type backBuffer struct {
	buf []byte
	off int // the data is buf[off:]
}

func (b *backBuffer) data() []byte { return b.buf[b.off:] }

// prepend makes room for n bytes before the data and returns that room.
func (b *backBuffer) prepend(n int) []byte {
	if b.buf == nil {
		// The first block is allocated to its size: it is most often the
		// only one, and every page of a larger buffer would be a fault.
		b.buf = make([]byte, n)
		b.off = n
	}
	if b.off < n {
		have := len(b.buf) - b.off
		nb := make([]byte, 2*(have+n))
		off := len(nb) - have
		copy(nb[off:], b.data())
		b.buf, b.off = nb, off
	}
	b.off -= n
	return b.buf[b.off : b.off+n]
}

// keep trims the data to its first n bytes.
func (b *backBuffer) keep(n int) {
	d := b.data()
	if n == len(d) {
		return
	}
	// Move the kept bytes to the end of the buffer so room stays in front.
	end := len(b.buf)
	copy(b.buf[end-n:], d[:n])
	b.off = end - n
}
