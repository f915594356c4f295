package forecast

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/reading"

	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// response is one assistant record line: id, context split into input,
// cache read and cache write (5m unless w1h).
func response(id string, input, read, write int64, w1h bool) string {
	cc := fmt.Sprintf(`{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":0}`, write)
	if w1h {
		cc = fmt.Sprintf(`{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":%d}`, write)
	}
	return fmt.Sprintf(`{"type":"assistant","message":{"id":%q,"model":"claude-opus-4-6","role":"assistant","content":[{"type":"tool_use","id":"tu_%s","name":"Bash","input":{}}],"usage":{"input_tokens":%d,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"cache_creation":%s,"output_tokens":100}}}`,
		id, id, input, read, write, cc)
}

// climb is the pinned example's transcript: the first response carries
// 40,000 tokens (38,000 read from the cache), each next one 2,500 more.
func climb(n int) string {
	var b strings.Builder
	for i := range n {
		ctx := int64(40_000 + 2_500*i)
		read := ctx - 2_500
		if i == 0 {
			read = 38_000
		}
		fmt.Fprintf(&b, "%s\n", response(fmt.Sprintf("msg_%03d", i), 0, read, ctx-read, false))
		fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu_msg_%03d","content":"ok"}]}}`+"\n", i)
	}
	return b.String()
}

// growing is a transcript a test writes in steps, and its history, kept
// up to date as the hook's recompute keeps it.
type growing struct {
	t    testing.TB
	path string
	data []byte
	History
}

func grow(t testing.TB) *growing {
	return &growing{t: t, path: filepath.Join(t.TempDir(), "s.jsonl")}
}

// add appends s to the transcript and brings the history up to date.
func (g *growing) add(s string) *History {
	g.t.Helper()
	g.data = append(g.data, s...)
	if err := os.WriteFile(g.path, g.data, 0o644); err != nil {
		g.t.Fatal(err)
	}
	if err := g.Update(g.path); err != nil {
		g.t.Fatal(err)
	}
	return &g.History
}

// feed is the history of the transcript s.
func feed(t *testing.T, s string) *History {
	t.Helper()
	return grow(t).add(s)
}

func TestPinnedClimb(t *testing.T) {
	h := feed(t, climb(72))
	if h.First.Context != 40_000 || h.First.CacheRead != 38_000 {
		t.Errorf("first = %+v", h.First)
	}
	if got := h.Q(); math.Abs(got-0.0004) > 1e-12 || !h.Measured() {
		t.Errorf("q = %v (measured %v), want 0.0004", got, h.Measured())
	}
	if h.Last.Context != 40_000+2_500*71 || h.Responses != 72 || h.TTL() != "5m" {
		t.Errorf("last %d, responses %d, ttl %s", h.Last.Context, h.Responses, h.TTL())
	}
}

func TestDefaultQBelowMinGrowth(t *testing.T) {
	h := feed(t, climb(8)) // growth 17,500
	if h.Measured() || h.Q() != 40.0/100_000 {
		t.Errorf("q = %v measured %v, want the default", h.Q(), h.Measured())
	}
}

// Several records share a message.id: one response, the last record kept.
func TestOneResponsePerMessageID(t *testing.T) {
	s := response("a", 10, 50_000, 0, false) + "\n" +
		response("b", 10, 60_000, 0, false) + "\n" +
		strings.Replace(response("b", 10, 60_000, 0, false), `"output_tokens":100`, `"output_tokens":900`, 1) + "\n"
	h := feed(t, s)
	if h.Responses != 2 || h.Requests != 2 {
		t.Errorf("responses %d requests %d, want 2 2", h.Responses, h.Requests)
	}
}

func TestBoundaryResetsGrowth(t *testing.T) {
	s := climb(40) +
		`{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":167094}}` + "\n"
	g := grow(t)
	h := g.add(s)
	if h.Since != nil || h.Measured() || h.AutoCompactAt != 167_094 || h.Boundaries != 1 {
		t.Fatalf("after boundary: since %v measured %v compact %d", h.Since, h.Measured(), h.AutoCompactAt)
	}
	// Growth counts from the first response after the boundary.
	var b strings.Builder
	for i := range 11 {
		ctx := int64(30_000 + 3_000*i)
		fmt.Fprintln(&b, response(fmt.Sprintf("post_%d", i), 0, ctx, 0, false))
	}
	g.add(b.String())
	if h.Since.Context != 30_000 || h.Requests != 11 || h.Growth() != 30_000 {
		t.Errorf("since %d requests %d growth %d", h.Since.Context, h.Requests, h.Growth())
	}
	if got, want := h.Q(), 10.0/30_000; math.Abs(got-want) > 1e-12 {
		t.Errorf("q = %v, want %v", got, want)
	}
	if h.First.Context != 40_000 {
		t.Errorf("first moved: %d", h.First.Context)
	}
	// A microcompaction is a boundary too, and a manual compaction is not
	// evidence of the automatic point.
	g.add(`{"type":"system","subtype":"microcompact_boundary","microcompactMetadata":{"trigger":"auto","preTokens":90000}}` + "\n" +
		`{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"manual","preTokens":90000}}` + "\n")
	if h.Boundaries != 3 || h.AutoCompactAt != 167_094 || h.Since != nil {
		t.Errorf("boundaries %d compact %d", h.Boundaries, h.AutoCompactAt)
	}
}

func TestSkipsOthers(t *testing.T) {
	s := strings.Join([]string{
		`{"type":"assistant","isSidechain":true,"message":{"id":"s","model":"claude-opus-4-6","usage":{"input_tokens":900000}}}`,
		`{"type":"assistant","message":{"id":"y","model":"<synthetic>","usage":{"input_tokens":0}}}`,
		`{"type":"assistant","message":{"id":"n","model":"claude-opus-4-6"}}`,
		`{"type":"user","message":{"role":"user","content":"the assistant said"}}`,
		"garbage \x00\x00 {",
		response("ok", 5, 1000, 7, true),
	}, "\n") + "\n"
	h := feed(t, s)
	if h.Responses != 1 || h.Peak != 1012 || !h.TTL1h || h.TTL() != "1h" {
		t.Errorf("responses %d peak %d ttl %s", h.Responses, h.Peak, h.TTL())
	}
}

func TestWindow1M(t *testing.T) {
	for name, line := range map[string]string{
		"requestedModel": strings.Replace(response("a", 1, 1, 1, false), `{"type":"assistant",`, `{"type":"assistant","requestedModel":"claude-opus-4-6[1m]",`, 1),
		"betas":          `{"type":"api-request","params":{"model":"claude-opus-4-6","betas":["claude-code-20250219","context-1m-2025-08-07"]}}`,
	} {
		if h := feed(t, line+"\n"); !h.Window1M {
			t.Errorf("%s: no 1M window", name)
		}
	}
	if h := feed(t, response("a", 1, 1, 1, false)+"\n"+`{"type":"user","message":{"content":"\"context-1m-\""}}`+"\n"); h.Window1M {
		t.Error("a user's words set the 1M window")
	}
}

// Fed in pieces, with a half-written last line at each cut, the history is
// the one of a single pass.
func TestIncremental(t *testing.T) {
	s := climb(60)
	whole := feed(t, s)
	for _, step := range []int{37, 997} {
		g := grow(t)
		for end := step; ; end += step {
			end = min(end, len(s))
			g.add(s[len(g.data):end])
			if end == len(s) {
				break
			}
		}
		h := g.History
		if !reflect.DeepEqual(h, *whole) {
			t.Errorf("step %d: %+v, want %+v", step, h, *whole)
		}
		if h.Offset != int64(len(s)) || h.Last.Context != whole.Last.Context || h.Requests != whole.Requests {
			t.Errorf("step %d: offset %d last %d requests %d", step, h.Offset, h.Last.Context, h.Requests)
		}
	}
}

func TestUpdateResumesAndRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	s := climb(30)
	cut := strings.LastIndex(s[:len(s)/2], "\n") + 1
	os.WriteFile(path, []byte(s[:cut]+s[cut:cut+20]), 0o644) // half a line at the end
	var h History
	if err := h.Update(path); err != nil {
		t.Fatal(err)
	}
	if h.Offset != int64(cut) {
		t.Fatalf("offset %d, want %d", h.Offset, cut)
	}
	os.WriteFile(path, []byte(s), 0o644)
	if err := h.Update(path); err != nil {
		t.Fatal(err)
	}
	if h.Responses != 30 || h.Offset != int64(len(s)) {
		t.Errorf("responses %d offset %d", h.Responses, h.Offset)
	}
	// A shorter file is another file: start over.
	os.WriteFile(path, []byte(climb(3)), 0o644)
	h.Update(path)
	if h.Responses != 3 {
		t.Errorf("after truncation: %d responses", h.Responses)
	}
}

func TestOverlongLineSkipped(t *testing.T) {
	big := `{"type":"user","message":{"content":"` + strings.Repeat("x", reading.MaxLine+10) + `"}}`
	s := response("a", 0, 50_000, 0, false) + "\n" + big + "\n" + response("b", 0, 80_000, 0, false) + "\n"
	h := feed(t, s)
	if h.Responses != 2 || h.Offset != int64(len(s)) || h.Last.Context != 80_000 {
		t.Errorf("responses %d offset %d/%d", h.Responses, h.Offset, len(s))
	}
}

// sharedTranscripts finds ../shared/data/transcripts beside the repository.
func sharedTranscripts(t testing.TB) string {
	return sharedtest.DirOrSkip(t)
}

func TestRealTranscripts(t *testing.T) {
	dir := sharedTranscripts(t)
	for name, compactAt := range map[string]int64{
		"4d5611e5-241a-462a-8d15-5122611a9569.jsonl": 170_251,
		"258c7280-ae70-4798-800f-63464d01a85d.jsonl": 167_094,
	} {
		var h History
		if err := h.Update(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		if h.AutoCompactAt != compactAt || h.Boundaries != 1 || h.Peak < 150_000 || h.First == nil || h.Window1M {
			t.Errorf("%s: %+v", name, h)
		}
		if h.Last.Model != "claude-opus-4-6" {
			t.Errorf("%s: last model %q", name, h.Last.Model)
		}
	}
}

func FuzzUpdate(f *testing.F) {
	f.Add([]byte(climb(3)))
	f.Add([]byte(`{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":1}}` + "\n"))
	f.Add([]byte(response("a", 1, 2, 3, true) + response("a", 1, 2, 3, true) + "\n\x00\x00"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		name := filepath.Join(dir, "s.jsonl")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var h History
		if err := h.Update(name); err != nil {
			t.Fatal(err)
		}
		if h.Offset > int64(len(data)) || (h.Offset > 0 && data[h.Offset-1] != '\n') {
			t.Fatalf("offset %d of %d", h.Offset, len(data))
		}
		_ = h.Q()
	})
}

// TestActsWithOrientationsTools: the pace starts at the first act, with
// the same tools orientation counts (a MultiEdit included).
func TestActsWithOrientationsTools(t *testing.T) {
	for _, tool := range append(append([]string{}, transcript.EditTools...), transcript.AskTools...) {
		m := &transcript.Message{Content: json.RawMessage(`[{"type":"tool_use","id":"t","name":"` + tool + `","input":{}}]`)}
		if !m.Acts() {
			t.Errorf("%s does not act", tool)
		}
	}
	if (&transcript.Message{Content: json.RawMessage(`[{"type":"tool_use","id":"t","name":"Bash","input":{}}]`)}).Acts() {
		t.Error("Bash acts")
	}
	if !(&transcript.Message{StopReason: "end_turn"}).Acts() {
		t.Error("end_turn does not act")
	}
}
