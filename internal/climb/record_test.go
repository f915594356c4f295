package climb

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/state"
)

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

// TestRecordReadsBack: a record with every field set reads back as
// written.
func TestRecordReadsBack(t *testing.T) {
	name := filepath.Join(t.TempDir(), "s1")
	want := Record{Level: Pause, Name: "pause", Lines: LineTokens{Warn: 120_000, Pause: 160_000}, Reading: 161_500, Compactions: 3}
	if err := os.WriteFile(name, encodeRecord(want), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Load(name); got != want {
		t.Errorf("Load = %+v, want %+v", got, want)
	}
}
