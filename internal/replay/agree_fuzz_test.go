package replay_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
)

// FuzzReadersAgree: on any complete file (ending in a newline), the
// history's pass and the tail scan read the same last response, and the
// history and replay count the same responses: they decode the same lines
// through the same reader and decoder. (Replay's reading of a response is
// its first record's, by design: not compared here.)
func FuzzReadersAgree(f *testing.F) {
	resp := func(id string, context int) string {
		return fmt.Sprintf(`{"type":"assistant","message":{"id":%q,"model":"claude-opus-4-6","content":[],"usage":{"input_tokens":1,"cache_read_input_tokens":%d,"output_tokens":10}}}`, id, context-1)
	}
	boundary := `{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":150000}}`
	f.Add([]byte(resp("a", 50_000) + "\n" + boundary + "\n" + resp("b", 40_000) + "\n"))
	f.Add([]byte(resp("a", 50_000) + resp("b", 80_000) + "\n\x00\x00\n"))
	f.Add([]byte(resp("a", 50_000) + "\n" + resp("a", 60_000) + "\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasSuffix(data, []byte("\n")) {
			data = append(data, '\n')
		}
		path := filepath.Join(t.TempDir(), "t.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var h forecast.History
		if err := h.Update(path); err != nil {
			t.Fatal(err)
		}
		rs := replay.File(replay.Source{Path: path}, replay.Options{
			NewModel: func(string) replay.Model { return replay.FixedModel(lines.Lines{}) }})
		if rs.Responses != h.Responses {
			t.Errorf("replay %d responses, history %d", rs.Responses, h.Responses)
		}
		tail, err := reading.Read(path, reading.Options{})
		switch {
		case errors.Is(err, reading.ErrNoReading):
			if h.Last != nil {
				t.Errorf("the tail finds no response, the history %+v", h.Last)
			}
		case err != nil:
			t.Fatal(err)
		case h.Last == nil:
			t.Errorf("the tail reads %d, the history has no response", tail.Tokens)
		case h.Last.Context != tail.Tokens:
			t.Errorf("the tail reads %d, the history %d", tail.Tokens, h.Last.Context)
		}
	})
}
