package state

import (
	"encoding/json"
	"testing"
)

// TestPlainRecordWritten: every record this package writes is read by the
// matcher, not by encoding/json.
func TestPlainRecordWritten(t *testing.T) {
	for _, rec := range []Record{
		{Name: "warn", Lines: Lines{Warn: 120_000, Pause: 160_000}, Reading: 121_500},
		{Name: "pause", Lines: Lines{Warn: 1, Pause: 2}, Reading: 0, Compactions: 3},
	} {
		data, _ := json.Marshal(rec)
		got, ok := plainRecord(append(data, '\n'))
		if !ok || got != rec {
			t.Errorf("%s: matched %v as %+v, want %+v", data, ok, got, rec)
		}
	}
}

// FuzzDecodeRecord: what the matcher accepts, encoding/json decodes to
// the same record.
func FuzzDecodeRecord(f *testing.F) {
	f.Add([]byte(`{"level":"warn","lines":{"Warn":120000,"Pause":160000},"reading":121500}` + "\n"))
	f.Add([]byte(`{"level":"pause","lines":{"Warn":1,"Pause":2},"reading":0,"compactions":3}`))
	f.Add([]byte(`{"level":"warn","lines":{"Warn":01,"Pause":2},"reading":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, ok := plainRecord(data)
		if !ok {
			return
		}
		var want Record
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%q: matched as %+v, encoding/json refuses it: %v", data, rec, err)
		}
		if rec != want {
			t.Fatalf("%q: matched as %+v, encoding/json gives %+v", data, rec, want)
		}
	})
}
