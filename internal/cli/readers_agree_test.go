package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
)

// agreeResponse is one assistant record with usage whose line is at least
// pad bytes long (its text block is padding).
func agreeResponse(id string, context int64, pad int) string {
	return fmt.Sprintf(`{"type":"assistant","sessionId":"agree","cwd":"/p","timestamp":"2026-01-01T00:00:00Z",`+
		`"message":{"id":%q,"model":"claude-opus-4-6","role":"assistant","stop_reason":null,`+
		`"content":[{"type":"text","text":"%s"}],`+
		`"usage":{"input_tokens":1,"cache_read_input_tokens":%d,"cache_creation_input_tokens":0,"output_tokens":10}}}`,
		id, strings.Repeat("x", pad), context-1)
}

const agreeBoundary = `{"type":"system","subtype":"compact_boundary","timestamp":"2026-01-01T00:00:00Z","compactMetadata":{"trigger":"auto","preTokens":150000}}`

func agreeToolResult(pad int) string {
	return `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"` +
		strings.Repeat("y", pad) + `"}]}}`
}

// TestReadersAgree feeds every forward reader of transcripts (the
// history's pass, orientation's scan, replay, doctor's scan) and the
// backward tail scan the same lines, and checks they find the same
// responses, the same last reading, the same peak and the same
// boundaries. Before the one reader, a 2 MiB assistant record gave the
// history no response at all and replay one response fewer than the tail
// scan read: replay no longer decided as the hook did.
func TestReadersAgree(t *testing.T) {
	over := reading.MaxLine + 1<<20 // a line every reader must skip
	cases := []struct {
		name  string
		lines []string
		// want: own responses, the last reading, the peak, boundaries.
		responses  int
		last, peak int64
		boundaries int
	}{
		{"plain", []string{agreeResponse("a", 50_000, 10), agreeBoundary, agreeResponse("b", 40_000, 10)},
			2, 40_000, 50_000, 1},
		{"2 MiB assistant record", []string{agreeResponse("a", 50_000, 10), agreeResponse("b", 150_000, 2<<20)},
			2, 150_000, 150_000, 0},
		{"2 MiB records of one response", []string{agreeResponse("a", 50_000, 2<<20), agreeResponse("a", 60_000, 2<<20), agreeResponse("b", 70_000, 2<<20)},
			2, 70_000, 70_000, 0},
		{"over-long assistant record skipped", []string{agreeResponse("a", 50_000, 10), agreeResponse("b", 150_000, over)},
			1, 50_000, 50_000, 0},
		{"over-long tool result", []string{agreeResponse("a", 50_000, 10), agreeToolResult(over), agreeBoundary, agreeResponse("b", 60_000, 10)},
			2, 60_000, 60_000, 1},
		{"spliced records", []string{agreeResponse("a", 50_000, 10) + agreeResponse("b", 80_000, 10)},
			2, 80_000, 80_000, 0},
		{"NUL run", []string{agreeResponse("a", 50_000, 10), "\x00\x00\x00\x00", agreeResponse("b", 90_000, 10)},
			2, 90_000, 90_000, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "agree.jsonl")
			if err := os.WriteFile(path, []byte(strings.Join(c.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			type found struct {
				responses  int
				last, peak int64
				boundaries int
			}
			want := found{c.responses, c.last, c.peak, c.boundaries}
			got := map[string]found{}

			var h forecast.History
			if err := h.Update(path); err != nil {
				t.Fatal(err)
			}
			hf := found{responses: h.Responses, peak: h.Peak, boundaries: h.Boundaries}
			if h.Last != nil {
				hf.last = h.Last.Context
			}
			got["history"] = hf

			s, err := orientation.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			var of found
			for _, r := range s.Responses {
				if !r.Sub {
					of.responses++
					of.last = r.Usage.Context()
					of.peak = max(of.peak, of.last)
				}
			}
			for _, e := range s.Events {
				if e.Boundary {
					of.boundaries++
				}
			}
			got["orientation"] = of

			rs := replay.File(replay.Source{Path: path}, replay.Options{Series: true,
				NewModel: func(string) replay.Model { return replay.FixedModel(lines.Lines{}) }})
			if rs.Error != "" {
				t.Fatal(rs.Error)
			}
			rf := found{responses: rs.Responses, peak: rs.Peak, boundaries: len(rs.Boundaries)}
			if n := len(rs.Readings); n > 0 {
				rf.last = rs.Readings[n-1]
			}
			got["replay"] = rf

			data, _ := os.ReadFile(path)
			ds, err := scanTranscript(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			// Doctor counts records, not responses: every record of one
			// response is counted.
			records := 0
			ids := map[string]bool{}
			for _, l := range c.lines {
				if len(l) <= reading.MaxLine && strings.Contains(l, `"assistant"`) {
					for _, part := range strings.SplitAfter(l, "}}}") {
						if i := strings.Index(part, `"id":"`); i >= 0 {
							records++
							ids[part[i+6:i+7]] = true
						}
					}
				}
			}
			if ds.responses != records {
				t.Errorf("doctor: %d response records, want %d", ds.responses, records)
			}
			got["doctor"] = found{responses: len(ids), last: ds.last, peak: ds.peak, boundaries: c.boundaries}

			tail, err := reading.Read(path, reading.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got["tail"] = found{responses: c.responses, last: tail.Tokens, peak: c.peak, boundaries: c.boundaries}

			for _, name := range []string{"history", "orientation", "replay", "doctor", "tail"} {
				if got[name] != want {
					t.Errorf("%s: %+v, want %+v", name, got[name], want)
				}
			}
		})
	}
}
