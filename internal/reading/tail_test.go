package reading

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// resp is one assistant record: a response with id, context tokens and
// output tokens, and a tool_use block with the given id.
func resp(id string, tokens, out int64, tool string) string {
	return fmt.Sprintf(`{"type":"assistant","isSidechain":false,"message":{"id":%q,"model":"claude-opus-4-6","role":"assistant",`+
		`"content":[{"type":"tool_use","id":%q,"name":"Bash","input":{}}],`+
		`"usage":{"input_tokens":1,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":%d}}}`,
		id, tool, tokens/2, tokens-tokens/2-1, out)
}

// toolResult is a user record carrying a tool result of n bytes; its text
// mentions "assistant" so that the reader's quick filter lets it through.
func toolResult(n int) string {
	body := strings.Repeat("x", max(n-40, 0))
	return `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"\"assistant\"` + body + `"}]}}`
}

func lines(ls ...string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

// TestLastEdgeCases pins the reading on the damage and shapes design §3
// lists. want is the tokens of the expected record and its output count
// (which tells records of one message apart), or 0 for no reading.
func TestLastEdgeCases(t *testing.T) {
	big := 5 << 20 // past MaxLine
	for _, tc := range []struct {
		name      string
		data      []byte
		want, out int64
	}{
		{"one record", lines(resp("m1", 1000, 5, "t1")), 1000, 5},
		{"no newline at the end", []byte(resp("m1", 1000, 5, "t1")), 1000, 5},
		{"empty", nil, 0, 0},
		{"only newlines", []byte("\n\n\n"), 0, 0},
		{"last record wins", lines(resp("m1", 9000, 5, "t1"), resp("m2", 1000, 6, "t2")), 1000, 6},
		{"last of one message id", lines(resp("m1", 1000, 5, "t1"), resp("m1", 1000, 70, "t2")), 1000, 70},
		{"behind a 3 MB tool result", lines(resp("m1", 111, 1, "t1"), resp("m2", 222, 2, "t2"), toolResult(3<<20)), 222, 2},
		{"behind two tool results past 1 MB", lines(resp("m2", 222, 2, "t2"), toolResult(1<<20+7), toolResult(2<<20)), 222, 2},
		{"a record over 1 MB", lines(resp("m1", 111, 1, "t1"), resp("m2", 333, 3, "t2"+strings.Repeat("y", 1<<20+5))), 333, 3},
		{"a record over MaxLine is skipped", lines(resp("m1", 111, 1, "t1"), resp("m2", 333, 3, strings.Repeat("y", big))), 111, 1},
		{"a tool result over MaxLine", lines(resp("m1", 111, 1, "t1"), toolResult(big), `{"type":"user"}`), 111, 1},
		{"half-written final line", append(lines(resp("m1", 111, 1, "t1")), resp("m2", 222, 2, "t2")[:150]...), 111, 1},
		{"half-written line, then more", lines(resp("m1", 111, 1, "t1"), resp("m2", 222, 2, "t2")[:150], `{"type":"user"}`), 111, 1},
		{"two records spliced", lines(resp("m1", 111, 1, "t1") + resp("m2", 222, 2, "t2")), 222, 2},
		{"a half record spliced before a whole one", lines(resp("m0", 99, 9, "t0"), resp("m1", 111, 1, "t1")[:120]+resp("m2", 222, 2, "t2")), 222, 2},
		{"a whole record spliced before a half one", lines(resp("m1", 111, 1, "t1") + resp("m2", 222, 2, "t2")[:120]), 111, 1},
		{"NUL runs between lines", lines(resp("m1", 111, 1, "t1"), "\x00\x00\x00\x00", resp("m2", 222, 2, "t2"), strings.Repeat("\x00", 5000)), 222, 2},
		{"NULs before a record", lines(resp("m1", 111, 1, "t1"), strings.Repeat("\x00", 100)+resp("m2", 222, 2, "t2")), 222, 2},
		{"unknown record types", lines(resp("m1", 111, 1, "t1"), `{"type":"api-request","betas":["context-1m"]}`,
			`{"type":"cost-state","assistant":"assistant"}`, `{"type":"queue-operation"}`, `{"type":"attachment"}`), 111, 1},
		{"missing usage", lines(resp("m1", 111, 1, "t1"), `{"type":"assistant","message":{"id":"m2","model":"claude-opus-4-6","content":[]}}`), 111, 1},
		{"usage null", lines(resp("m1", 111, 1, "t1"), `{"type":"assistant","message":{"id":"m2","model":"claude-opus-4-6","usage":null}}`), 111, 1},
		{"message missing", lines(resp("m1", 111, 1, "t1"), `{"type":"assistant"}`), 111, 1},
		{"sidechain", lines(resp("m1", 111, 1, "t1"), strings.Replace(resp("m2", 222, 2, "t2"), `"isSidechain":false`, `"isSidechain":true`, 1)), 111, 1},
		{"synthetic", lines(resp("m1", 111, 1, "t1"), strings.Replace(resp("m2", 0, 0, "t2"), "claude-opus-4-6", "<synthetic>", 1)), 111, 1},
		{"usage of the wrong type", lines(resp("m1", 111, 1, "t1"), `{"type":"assistant","message":{"id":"m2","model":"x","usage":"lots"}}`), 111, 1},
		{"CRLF line ends", []byte(resp("m1", 111, 1, "t1") + "\r\n" + resp("m2", 222, 2, "t2") + "\r\n"), 222, 2},
		{"compaction drops the reading", lines(resp("m1", 350000, 1, "t1"),
			`{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":350000}}`,
			`{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"summary"}}`, resp("m2", 40000, 2, "t2")), 40000, 2},
		{"only tool results", lines(`{"type":"user"}`, toolResult(100)), 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _, err := Last(bytes.NewReader(tc.data), int64(len(tc.data)), "")
			got, out := r.Tokens, r.Usage.OutputTokens
			if err != nil {
				got, out = 0, 0
			}
			if got != tc.want || out != tc.out {
				t.Errorf("reading %d (output %d), err %v; want %d (output %d)", got, out, err, tc.want, tc.out)
			}
			if tc.want == 0 && err != ErrNoReading {
				t.Errorf("err = %v, want ErrNoReading", err)
			}
			// The oracle agrees wherever it can read the lines.
			if ref := refLast(tc.data); ref.Found && !strings.Contains(tc.name, "splice") && !strings.Contains(tc.name, "NULs before") {
				if ref.Tokens != tc.want || ref.Usage.Output != tc.out {
					t.Errorf("the forward oracle reads %d (output %d): the case is wrong", ref.Tokens, ref.Usage.Output)
				}
			}
		})
	}
}

// TestLastToolUseID pins what Last reports as seen: a tool_use block of the
// last response, in any of its records, but not of an earlier response.
func TestLastToolUseID(t *testing.T) {
	data := lines(
		resp("m1", 100, 1, "t1"), `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1"}]}}`,
		resp("m2", 200, 2, "t2a"), resp("m2", 200, 3, "t2b"), `{"type":"user"}`)
	for _, tc := range []struct {
		id   string
		seen bool
	}{
		{"t2b", true}, {"t2a", true}, {"t1", false}, {"t9", false}, {"t2", false},
	} {
		r, seen, err := Last(bytes.NewReader(data), int64(len(data)), tc.id)
		if err != nil || seen != tc.seen || r.Tokens != 200 || r.Usage.OutputTokens != 3 {
			t.Errorf("Last(%q) = %d (output %d), seen %v, err %v; want 200 (output 3), seen %v",
				tc.id, r.Tokens, r.Usage.OutputTokens, seen, err, tc.seen)
		}
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// TestLastCostFlat checks that the tail reader's work does not grow with
// the transcript: the bytes it reads depend on the distance of the last
// response from the end, not on what lies before it.
func TestLastCostFlat(t *testing.T) {
	tail := lines(resp("m9", 999, 9, "t9"), toolResult(2000))
	var read []int64
	for _, before := range []int{1 << 20, 4 << 20, 16 << 20} {
		data := append(bytes.Repeat(lines(resp("m1", 100, 1, "t1")), before/300), tail...)
		c := &countingReader{r: bytes.NewReader(data)}
		r, _, err := Last(c, int64(len(data)), "")
		if err != nil || r.Tokens != 999 {
			t.Fatalf("reading %d, err %v; want 999", r.Tokens, err)
		}
		read = append(read, c.n)
	}
	for _, n := range read {
		if n != read[0] || n > firstBlock {
			t.Errorf("bytes read for growing files: %v; want the same, at most one block", read)
			break
		}
	}
}
