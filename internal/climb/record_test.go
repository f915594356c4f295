package climb

import (
	"encoding/json"
	"testing"
)

// TestPlainRecordWritten: every record this package writes is read by the
// matcher, not by encoding/json.
func TestPlainRecordWritten(t *testing.T) {
	for _, rec := range []Record{
		{Name: "warn", Lines: LineTokens{Warn: 120_000, Pause: 160_000}, Reading: 121_500},
		{Name: "pause", Lines: LineTokens{Warn: 1, Pause: 2}, Reading: 0, Compactions: 3},
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

// FuzzEncodeRecord: the hand-written encoder writes what json.Marshal
// writes, for any record.
func FuzzEncodeRecord(f *testing.F) {
	f.Add("warn", int64(120_000), int64(160_000), int64(121_500), 0)
	f.Add("pause", int64(-1), int64(2), int64(0), -3)
	f.Add("Warn\"", int64(1), int64(2), int64(3), 4)
	f.Fuzz(func(t *testing.T, name string, warn, pause, reading int64, compactions int) {
		rec := Record{Name: name, Lines: LineTokens{Warn: warn, Pause: pause}, Reading: reading, Compactions: compactions}
		want, _ := json.Marshal(rec)
		if got := encodeRecord(rec); string(got) != string(want)+"\n" {
			t.Fatalf("encodeRecord(%+v) = %s, json.Marshal %s", rec, got, want)
		}
	})
}
