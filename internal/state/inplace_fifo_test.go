//go:build unix

package state

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestWriteInPlaceRefusesFIFO: a FIFO planted at a state file's name is
// refused at once. Opened for writing without O_NONBLOCK it would wait
// for a reader, holding the hook until its deadline.
func TestWriteInPlaceRefusesFIFO(t *testing.T) {
	dir := Dir(t.TempDir())
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "s1.calls")
	if err := syscall.Mkfifo(name, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- WriteInPlace(name, []byte("1 0\nsig\n")) }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("wrote into a FIFO")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("WriteInPlace waited on a FIFO with no reader")
	}
}
