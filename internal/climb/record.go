package climb

import (
	"encoding/json"

	"github.com/muthur/context-budget/internal/reading"
)

// encodeRecord is the record file's content: one JSON object and a
// newline.
func encodeRecord(rec Record) []byte {
	data, _ := json.Marshal(rec)
	return append(data, '\n')
}

// decodeRecord reads a record file, by path: it is read on every call of
// a climb. The record is rewritten in place, so a reader without the lock
// may find a new record followed by the tail of a longer old one: that is
// not one JSON value, and reads as no record; so does a value of another
// type.
func decodeRecord(data []byte) (Record, bool) {
	var rec Record
	var compactions int64
	err := reading.NewPick(
		reading.Field{Path: "level", To: &rec.Name, Strict: true},
		reading.Field{Path: "lines.Warn", To: &rec.Lines.Warn, Strict: true},
		reading.Field{Path: "lines.Pause", To: &rec.Lines.Pause, Strict: true},
		reading.Field{Path: "reading", To: &rec.Reading, Strict: true},
		reading.Field{Path: "compactions", To: &compactions, Strict: true},
	).Decode(data)
	rec.Compactions = int(compactions)
	return rec, err == nil
}
