package climb

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// encodeRecord is json.Marshal of a record and a newline, written by hand
// (a test checks it is the same text): the first encode of encoding/json
// in a fresh process costs a notice call about a tenth of its time. A
// name that is not a plain lower-case word goes through encoding/json.
func encodeRecord(rec Record) []byte {
	for _, c := range []byte(rec.Name) {
		if c < 'a' || c > 'z' {
			data, _ := json.Marshal(rec)
			return append(data, '\n')
		}
	}
	b := make([]byte, 0, 96)
	b = append(b, `{"level":"`...)
	b = append(b, rec.Name...)
	b = append(b, `","lines":{"Warn":`...)
	b = strconv.AppendInt(b, rec.Lines.Warn, 10)
	b = append(b, `,"Pause":`...)
	b = strconv.AppendInt(b, rec.Lines.Pause, 10)
	b = append(b, `},"reading":`...)
	b = strconv.AppendInt(b, rec.Reading, 10)
	if rec.Compactions != 0 {
		b = append(b, `,"compactions":`...)
		b = strconv.AppendInt(b, int64(rec.Compactions), 10)
	}
	return append(b, "}\n"...)
}

// decodeRecord decodes a once-per-climb record. The record this package
// writes (json.Marshal of a Record, one line) is read by a small matcher
// of exactly that form, with the result encoding/json gives (a fuzzer
// checks it): a session past its warn line reads its record on every
// call, and encoding/json's first decode in a fresh process costs about
// as much as the rest of a quiet hook call. Anything else, a record
// written by hand or by another version, goes through encoding/json.
func decodeRecord(data []byte) (Record, bool) {
	if rec, ok := plainRecord(data); ok {
		return rec, true
	}
	var rec Record
	if json.Unmarshal(data, &rec) != nil {
		return Record{}, false
	}
	return rec, true
}

// plainRecord matches {"level":"<word>","lines":{"Warn":<n>,"Pause":<n>},
// "reading":<n>[,"compactions":<n>]} and a final newline, n a
// non-negative integer as json.Marshal writes it.
func plainRecord(b []byte) (rec Record, ok bool) {
	b = bytes.TrimSuffix(b, []byte("\n"))
	lit := func(s string) bool {
		if !bytes.HasPrefix(b, []byte(s)) {
			return false
		}
		b = b[len(s):]
		return true
	}
	num := func() (int64, bool) {
		i := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == 0 || i > 18 || (b[0] == '0' && i > 1) {
			return 0, false
		}
		var n int64
		for _, c := range b[:i] {
			n = n*10 + int64(c-'0')
		}
		b = b[i:]
		return n, true
	}
	if !lit(`{"level":"`) {
		return Record{}, false
	}
	i := 0
	for i < len(b) && b[i] >= 'a' && b[i] <= 'z' {
		i++
	}
	rec.Name, b = string(b[:i]), b[i:]
	var ok1, ok2, ok3 bool
	if !lit(`","lines":{"Warn":`) {
		return Record{}, false
	}
	rec.Lines.Warn, ok1 = num()
	if !ok1 || !lit(`,"Pause":`) {
		return Record{}, false
	}
	rec.Lines.Pause, ok2 = num()
	if !ok2 || !lit(`},"reading":`) {
		return Record{}, false
	}
	rec.Reading, ok3 = num()
	if !ok3 {
		return Record{}, false
	}
	if lit(`,"compactions":`) {
		n, ok := num()
		if !ok || n > 1<<31-1 {
			return Record{}, false
		}
		rec.Compactions = int(n)
	}
	if string(b) != "}" {
		return Record{}, false
	}
	return rec, true
}
