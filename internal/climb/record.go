package climb

import "encoding/json"

// encodeRecord is the record file's content: one JSON object and a
// newline.
func encodeRecord(rec Record) []byte {
	data, _ := json.Marshal(rec)
	return append(data, '\n')
}

// decodeRecord reads a record file. The record is rewritten in place, so
// a reader without the lock may find a new record followed by the tail
// of a longer old one: that is not one JSON value, and reads as no record.
func decodeRecord(data []byte) (Record, bool) {
	var rec Record
	return rec, json.Unmarshal(data, &rec) == nil
}
