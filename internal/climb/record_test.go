package climb

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/state"
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

// TestRecordCaughtHalfWritten: the record is rewritten in place under its
// lock, so a reader without the lock may find the new record over what is
// left of a longer old one (written, not yet truncated). That reads as no
// record, never as a third record, so the unlocked look takes the lock.
func TestRecordCaughtHalfWritten(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "s1")
	for _, c := range []struct{ old, new Record }{
		{Record{Name: "warn", Lines: LineTokens{Warn: 120_000, Pause: 160_000}, Reading: 121_500, Compactions: 12},
			Record{Name: "pause", Lines: LineTokens{Warn: 1_000, Pause: 2_000}, Reading: 3_000}},
		{Record{Name: "pause", Lines: LineTokens{Warn: 120_000, Pause: 160_000}, Reading: 161_500},
			Record{Name: "warn", Lines: LineTokens{Warn: 12_000, Pause: 16_000}, Reading: 12_500}},
	} {
		old, new := encodeRecord(c.old), encodeRecord(c.new)
		if len(new) >= len(old) {
			t.Fatalf("test case: the new record must be the shorter")
		}
		torn := append(append([]byte{}, new...), old[len(new):]...)
		if err := os.WriteFile(name, torn, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := Load(name); got != (Record{}) {
			t.Errorf("%q read as %+v, want no record", torn, got)
		}
		// Written whole, the record reads back.
		if err := state.WriteInPlace(name, new); err != nil {
			t.Fatal(err)
		}
		want := c.new
		want.Level = Warn
		if want.Name == "pause" {
			want.Level = Pause
		}
		if got := Load(name); got != want {
			t.Errorf("after the write: %+v, want %+v", got, want)
		}
	}
}
