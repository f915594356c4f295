package operator

import (
	"os"
	"testing"
	"time"
)

// TestPauseRecord: a pause record reads back as written, the latest
// replacing the one before; a session with none, a name that is not
// plain or a record that is not one read as none.
func TestPauseRecord(t *testing.T) {
	dir := t.TempDir() + "/tmp/context-budget"
	if _, ok := ReadPause(dir, "s1"); ok {
		t.Fatal("a pause record before any pause")
	}
	at := time.Date(2026, 11, 20, 10, 15, 0, 0, time.FixedZone("x", 3600))
	for _, manual := range []bool{true, false} {
		if err := RecordPause(dir, "s1", manual, at); err != nil {
			t.Fatal(err)
		}
		got, ok := ReadPause(dir, "s1")
		if want := (Pause{Manual: manual, At: "2026-11-20T09:15:00Z"}); !ok || got != want {
			t.Errorf("ReadPause = %+v, %v; want %+v", got, ok, want)
		}
	}
	if err := RecordPause(dir, "../s1", true, at); err != nil {
		t.Errorf("a name that is not plain: %v, want silence", err)
	}
	if _, ok := ReadPause(dir, "../s1"); ok {
		t.Error("a name that is not plain read a record")
	}
	if err := os.WriteFile(PauseFile(dir, "s2"), []byte("{garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := ReadPause(dir, "s2"); ok {
		t.Error("garbage read as a record")
	}
}
