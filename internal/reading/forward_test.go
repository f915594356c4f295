package reading

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/muthur/context-budget/tools/gen"
)

// hookCall is one PostToolUse hook call in a transcript: the tool_use id,
// and the file's size when the hook reads it (the end of the call's tool
// result line).
type hookCall struct {
	id   string
	size int64
}

// hookCalls lists the calls of a generated transcript, in order.
func hookCalls(t *testing.T, data []byte) []hookCall {
	t.Helper()
	var calls []hookCall
	off := int64(0)
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		off += int64(len(l))
		if !bytes.Contains(l, []byte(`"tool_result"`)) {
			continue
		}
		var rec struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(l, &rec) != nil || rec.Type != "user" {
			continue
		}
		var blocks []struct {
			Type      string `json:"type"`
			ToolUseID string `json:"tool_use_id"`
		}
		if json.Unmarshal(rec.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" && b.ToolUseID != "" {
				calls = append(calls, hookCall{id: b.ToolUseID, size: off})
			}
		}
	}
	return calls
}

// sameMessage reports whether two readings are of one response: every
// figure the hook reads.
func sameMessage(a, b Reading) bool {
	return a.Tokens == b.Tokens && a.MessageID == b.MessageID && a.Model == b.Model &&
		a.RequestedModel == b.RequestedModel && a.Version == b.Version
}

// TestLastFromAgrees replays the hook over generated sessions with
// multi-megabyte tool results in their body and at their end: at each
// call, the transcript as the hook sees it (up to the call's tool result)
// is read with the mark the previous call left, and without one. The two
// must agree on the response and on whether it holds the call's block,
// and a mark must be the start of a line holding the response.
func TestLastFromAgrees(t *testing.T) {
	forward := 0
	for seed := uint64(1); seed <= 3; seed++ {
		var buf bytes.Buffer
		if _, err := gen.Write(&buf, gen.Options{Size: 5 << 20, Seed: seed, HugeResult: 600 << 10, HugeEvery: 1 << 20}); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		calls := hookCalls(t, data)
		if len(calls) < 50 {
			t.Fatalf("seed %d: only %d calls", seed, len(calls))
		}
		mark := int64(0)
		for _, c := range calls {
			f := bytes.NewReader(data)
			want, wantSeen, _, wantErr := last(f, c.size, c.id, 0)
			cr := &countingReader{r: f}
			got, seen, at, err := last(cr, c.size, c.id, mark)
			if (err == nil) != (wantErr == nil) || !sameMessage(got, want) || seen != wantSeen {
				t.Fatalf("seed %d, call %s at %d, mark %d: %+v seen %v (%v), without the mark %+v seen %v (%v)",
					seed, c.id, c.size, mark, got, seen, err, want, wantSeen, wantErr)
			}
			if err == nil {
				if at != 0 && data[at-1] != '\n' {
					t.Fatalf("seed %d, call %s: mark %d is not a line start", seed, c.id, at)
				}
				end := at + int64(bytes.IndexByte(data[at:], '\n'))
				if !bytes.Contains(data[at:end], []byte(`"`+got.MessageID+`"`)) {
					t.Fatalf("seed %d, call %s: the line at mark %d does not hold message %s", seed, c.id, at, got.MessageID)
				}
				mark = at
			}
			if c.size-mark > 600<<10 && cr.n < 300<<10 {
				forward++
			}
		}
	}
	if forward == 0 {
		t.Fatal("no call took the forward look: the sessions do not test it")
	}
	t.Logf("%d calls read behind a long tool result from the mark", forward)
}

// TestLastFromSkipsHugeTail is the bench's case: the response that made
// the call, then its 3 MB tool result. From the previous call's mark the
// reading costs a few KB of reads, not the 3 MB; from no mark, or a mark
// behind another long result, the backward scan crosses it as before.
func TestLastFromSkipsHugeTail(t *testing.T) {
	var buf bytes.Buffer
	res, err := gen.Write(&buf, gen.Options{Size: 4 << 20, Seed: 7, Tail: gen.TailBehindHuge})
	if err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	size := int64(len(data))
	f := bytes.NewReader(data)
	want, seen, at, err := last(f, size, res.ToolUseID, 0)
	if err != nil || !seen || want.Tokens != res.Reading {
		t.Fatalf("without a mark: %+v seen %v (%v), want %d", want, seen, err, res.Reading)
	}
	// The previous call's response: the last line start before this
	// response's line.
	prev := int64(bytes.LastIndexByte(data[:at-1], '\n') + 1)
	for _, mark := range []int64{at, prev} {
		cr := &countingReader{r: f}
		got, seen, _, err := last(cr, size, res.ToolUseID, mark)
		if err != nil || !seen || !sameMessage(got, want) {
			t.Fatalf("mark %d: %+v seen %v (%v), want %+v", mark, got, seen, err, want)
		}
		if cr.n > 256<<10 {
			t.Errorf("mark %d: read %d bytes, want the response found without crossing the 3 MB result", mark, cr.n)
		}
	}
	// A mark past the response (a rewritten file) finds nothing forward:
	// the answer is the backward scan's.
	cr := &countingReader{r: f}
	got, seen, _, err := last(cr, size, res.ToolUseID, at+int64(bytes.IndexByte(data[at:], '\n'))+1)
	if err != nil || !seen || !sameMessage(got, want) || cr.n < 3<<20 {
		t.Fatalf("mark past the response: %+v seen %v (%v) after %d bytes", got, seen, err, cr.n)
	}
}

// FuzzLastFrom appends a long tool result to arbitrary transcript bytes
// (lines shorter than firstBlock), so that a backward scan meets it
// first, and reads them from every line start as the mark: the reading
// and whether the call's block is there are the backward scan's whenever
// the last response holds the block (the hook's case), and the forward
// look never claims the block when it does not.
func FuzzLastFrom(f *testing.F) {
	f.Add(lines(resp("m1", 100, 1, "t1"), toolResult(50), resp("m2", 200, 2, "t2")), "t2", int64(0))
	f.Add(lines(resp("m1", 100, 1, "t1"), toolResult(50), resp("m2", 200, 2, "t2"), resp("m2", 200, 3, "t3")), "t2", int64(40))
	f.Add(lines(resp("m1", 100, 1, "t1"), resp("m2", 200, 2, "t2")), "t1", int64(300))
	f.Add(lines(resp("m1", 100, 1, "t1")+resp("m2", 200, 2, "t2"), toolResult(10)), "t2", int64(1))
	// A later response after the one holding the block: the forward look
	// must not claim it (the reset of seen when a new message starts).
	f.Add(lines(resp("m1", 100, 1, "t1"), resp("m2", 200, 2, "t2"), resp("m3", 300, 3, "t3")), "t2", int64(len(resp("m1", 100, 1, "t1"))+1))
	long := []byte(toolResult(dropAfter*2) + "\n")
	f.Fuzz(func(t *testing.T, data []byte, id string, from int64) {
		if id == "" || strings.ContainsAny(id, "\"\\\n") {
			return
		}
		if len(data) > 0 && data[len(data)-1] != '\n' {
			data = append(data, '\n')
		}
		// Lines past firstBlock may end the forward look early: past the
		// call's response such a line is its tool's result, which the
		// look need not read (last's doc); arbitrary bytes need not keep
		// to that.
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(l) >= firstBlock {
				return
			}
		}
		all := append(bytes.Clone(data), long...)
		// The mark: the first line start at or after from, within data.
		if from < 0 || from > int64(len(data)) {
			from = 0
		}
		if from > 0 {
			i := bytes.IndexByte(data[from-1:], '\n')
			from += int64(i)
			if from >= int64(len(data)) {
				from = 0
			}
		}
		size := int64(len(all))
		want, wantSeen, _, wantErr := last(bytes.NewReader(all), size, id, 0)
		got, seen, _, err := last(bytes.NewReader(all), size, id, from)
		if seen && !wantSeen {
			t.Fatalf("mark %d: the forward look claims %q in %+v, the backward scan finds it not in %+v", from, id, got, want)
		}
		if wantSeen && ((err == nil) != (wantErr == nil) || !sameMessage(got, want) || !seen) {
			t.Fatalf("mark %d: %+v seen %v (%v), backward %+v seen %v (%v)", from, got, seen, err, want, wantSeen, wantErr)
		}
	})
}

// TestLastForwardLaterResponse: a response after the one that holds the
// call's block, before the long line, is the last one: the forward look
// does not take the earlier one for it, and the answer is the backward
// scan's (the block not seen).
func TestLastForwardLaterResponse(t *testing.T) {
	first := resp("m1", 100, 1, "t1")
	data := lines(first, resp("m2", 200, 2, "t2"), resp("m3", 300, 3, "t3"), toolResult(dropAfter*2))
	mark := int64(len(first) + 1)
	if _, _, ok := lastForward(bytes.NewReader(data), mark, int64(len(data)), []byte(`"t2"`)); ok {
		t.Fatal("the forward look claimed t2 with m3 after it")
	}
	got, seen, _, err := last(bytes.NewReader(data), int64(len(data)), "t2", mark)
	if err != nil || seen || got.MessageID != "m3" {
		t.Fatalf("from the mark: %+v seen %v (%v), want m3 unseen", got, seen, err)
	}
	// The same with the response that holds t2 last: found forward.
	data = lines(first, resp("m3", 300, 3, "t3"), resp("m2", 200, 2, "t2"), toolResult(dropAfter*2))
	r, at, ok := lastForward(bytes.NewReader(data), mark, int64(len(data)), []byte(`"t2"`))
	if !ok || r.MessageID != "m2" || !bytes.HasPrefix(data[at:], []byte(resp("m2", 200, 2, "t2"))) {
		t.Fatalf("m2 last: %+v at %d ok %v", r, at, ok)
	}
}
