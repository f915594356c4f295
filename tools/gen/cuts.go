package gen

import (
	"bytes"
	"encoding/json"

	"github.com/muthur/context-budget/internal/transcript"
)

// Cuts finds, independently of the replay's walk, where a transcript can
// be cut after each of the session's own responses: the end of the line
// holding the response's last record, or, where records are spliced on
// one line, the end of that record, as the file stood when the hook ran.
// Lines longer than maxLine are skipped, as the hook's readers skip them
// (pass reading.MaxLine: gen does not import the readers it tests).
func Cuts(data []byte, maxLine int) []int {
	var ends []int
	lastID := ""
	open := false
	take := func(r *transcript.Record, end int) {
		if !r.IsResponse() {
			if r.IsBoundary() {
				open = false
			}
			return
		}
		if open && r.Message.ID != "" && r.Message.ID == lastID {
			ends[len(ends)-1] = end
			return
		}
		lastID, open = r.Message.ID, true
		ends = append(ends, end)
	}
	off := 0
	for len(data[off:]) > 0 {
		n := bytes.IndexByte(data[off:], '\n')
		end := len(data)
		if n >= 0 {
			end = off + n + 1
		}
		line := data[off:end]
		start := off
		off = end
		if len(line) > maxLine {
			continue
		}
		var r transcript.Record
		if json.Unmarshal(line, &r) == nil {
			take(&r, end)
			continue
		}
		// Damaged: split it into whatever objects decode, each ending where
		// its bytes end.
		dec := json.NewDecoder(bytes.NewReader(line))
		for {
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				break
			}
			var r transcript.Record
			if json.Unmarshal(raw, &r) == nil {
				take(&r, start+int(dec.InputOffset()))
			}
		}
	}
	return ends
}
