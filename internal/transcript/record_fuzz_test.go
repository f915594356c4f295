package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// FuzzDecode checks that Decode never panics, and that a line that is one
// JSON record is passed on exactly once, as encoding/json reads it.
func FuzzDecode(f *testing.F) {
	for _, l := range realLines(f, 16<<10) {
		f.Add(l)
	}
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","model":"x","usage":{"input_tokens":5}}}{"type":"user"}`))
	f.Add([]byte("\x00\x00{\"type\":\"assistant\"}"))
	f.Add([]byte(`{"type":"assistant","timestamp":12,"message":{"usage":{"input_tokens":1}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var calls []Record
		Decode(line, func(r *Record) { calls = append(calls, *r) })
		if len(calls) > maxAttempts {
			t.Fatalf("%d records from one line, more than the %d attempts allowed", len(calls), maxAttempts)
		}
		var want Record
		err := json.Unmarshal(line, &want)
		object := len(bytes.TrimLeft(line, " \t\r\n")) > 0 && bytes.TrimLeft(line, " \t\r\n")[0] == '{'
		var typeErr *json.UnmarshalTypeError
		switch {
		case err == nil && object:
			if len(calls) != 1 {
				t.Fatalf("a valid record gave %d records, want 1", len(calls))
			}
		case errors.As(err, &typeErr):
			// A field of an unexpected type: the record as encoding/json
			// leaves it, or nothing.
			if len(calls) > 1 {
				t.Fatalf("a valid JSON text gave %d records, want at most 1", len(calls))
			}
		default:
			return
		}
		if len(calls) == 1 && !reflect.DeepEqual(calls[0], want) {
			t.Fatalf("Decode gave %+v, encoding/json %+v", calls[0], want)
		}
	})
}
