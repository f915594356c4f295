//go:build unix

package climb

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestAdvanceReplacesFIFO: a FIFO planted at the record's name is not
// written into (that would wait for a reader): the record replaces it
// whole, at once, and the notice fires once.
func TestAdvanceReplacesFIFO(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "s1")
	if err := syscall.Mkfifo(name, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Written into, the FIFO would hold Advance until the test's
	// timeout: returning at all is the check.
	if got, err := AdvanceWith(dir, "s1", 305, std, Options{}); err != nil || got != Warn {
		t.Fatalf("Advance = %v, %v; want Warn", got, err)
	}
	if got := Load(name); got.Level != Warn {
		t.Errorf("record after the FIFO = %+v, want warn", got)
	}
	if got, err := AdvanceWith(dir, "s1", 306, std, Options{}); err != nil || got != None {
		t.Errorf("second Advance = %v, %v; want None (once per climb)", got, err)
	}
}
