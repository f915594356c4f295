package reading

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var toolUseIDs = regexp.MustCompile(`"type":"tool_use","id":"([^"]+)"`)

// TestLastRealTranscripts checks the tail reader against the forward
// oracle on every real transcript, truncated after each line that holds an
// assistant record (with and without its newline): the reading must be the
// same, and a tool_use id of the last response must be seen.
func TestLastRealTranscripts(t *testing.T) {
	for _, path := range realTranscripts(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := bytes.NewReader(data)
			var want refReading
			positions := 0
			off := 0
			for off < len(data) {
				end := len(data)
				if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
					end = off + i
				}
				line := data[off:end]
				next := min(end+1, len(data))
				rec := refLine(line)
				if rec == nil && len(bytes.TrimSpace(line)) > 0 {
					t.Errorf("line at %d does not decode: the oracle assumes well-formed real transcripts", off)
				}
				if rec != nil && rec.qualifies() {
					want = refOf(rec)
				}
				if rec != nil && rec.Type == "assistant" {
					positions++
					for _, size := range []int{end, next} {
						r, _, err := Last(f, int64(size), "")
						got := fromReading(r, err)
						if !sameReading(got, want) {
							t.Fatalf("at %d bytes: tail reading %+v, forward parse %+v", size, got, want)
						}
					}
					if rec.qualifies() {
						for _, m := range toolUseIDs.FindAllSubmatch(rec.Message.Content, -1) {
							r, seen, err := Last(f, int64(next), string(m[1]))
							if err != nil || !seen || !sameReading(fromReading(r, err), want) {
								t.Fatalf("at %d bytes with tool_use_id %s: seen %v, reading %+v, err %v; want seen and %+v",
									next, m[1], seen, fromReading(r, err), err, want)
							}
						}
					}
				}
				off = next
			}
			_, _, err = Last(f, int64(len(data)), "")
			if want.Found == (err != nil) || (err != nil && !errors.Is(err, ErrNoReading)) {
				t.Errorf("whole file: err %v, forward parse found %v", err, want.Found)
			}
			t.Logf("%d assistant positions, final reading %d", positions, want.Tokens)
		})
	}
}
