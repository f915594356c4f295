package reading_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/reading"
)

// Every kind of file that is not a regular one is refused at once: a FIFO
// without a writer, a link to /dev/zero, a folder; a sparse file over the
// bound is refused before it is read.
func TestReadFileHostile(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "ok")
	os.WriteFile(regular, []byte("data"), 0o644)
	if got, err := reading.ReadFile(regular, 4); err != nil || string(got) != "data" {
		t.Fatalf("regular file: %q %v", got, err)
	}
	if _, err := reading.ReadFile(regular, 3); !errors.Is(err, reading.ErrTooLarge) {
		t.Errorf("over the bound: got %v, want ErrTooLarge", err)
	}
	sparse := filepath.Join(dir, "sparse")
	f, _ := os.Create(sparse)
	f.Truncate(1 << 30)
	f.Close()
	if _, err := reading.ReadFile(sparse, 1<<20); !errors.Is(err, reading.ErrTooLarge) {
		t.Errorf("sparse 1 GB: got %v, want ErrTooLarge", err)
	}
	if _, err := reading.ReadFile(dir, 1<<20); !errors.Is(err, reading.ErrNotRegular) {
		t.Errorf("folder: got %v, want ErrNotRegular", err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	if _, err := reading.ReadFile(zero, 1<<20); !errors.Is(err, reading.ErrNotRegular) {
		t.Errorf("link to /dev/zero: got %v, want ErrNotRegular", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := reading.ReadFile(fifo, 1<<20); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, reading.ErrNotRegular) {
			t.Errorf("FIFO: got %v, want ErrNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
}
