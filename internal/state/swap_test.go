package state

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// A state folder swapped for a link while the hook writes (a committed
// link, a racing process) never gets a file made where the link points:
// every writer opens each folder without following a link and checks
// that what it opened is what it looked at (issue 31, class 3).
func TestSwapDuringWrites(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges here")
	}
	root, outside := t.TempDir(), t.TempDir()
	inner := filepath.Join(root, "inner")
	os.MkdirAll(inner, 0o755)
	dir := Dir(root)
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		real := filepath.Join(root, "tmp", "real")
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			target := outside
			if i%2 == 1 {
				target = inner
			}
			// Swap the folder for a link and back, by renames.
			os.Rename(dir, real)
			os.Symlink(target, dir)
			time.Sleep(50 * time.Microsecond)
			os.Remove(dir)
			os.Rename(real, dir)
		}
	}()
	deadline := time.Now().Add(300 * time.Millisecond)
	for n := 0; time.Now().Before(deadline); n++ {
		if unlock, err := LockBy(filepath.Join(dir, "s1.lock"), time.Now().Add(time.Millisecond)); err == nil {
			unlock()
		}
		WriteInPlace(filepath.Join(dir, "s1.calls"), []byte("x 1\n"))
		WriteFile(filepath.Join(dir, "s1.line"), []byte("line\n"))
		Remove(filepath.Join(dir, "s1.cold"))
	}
	close(stop)
	wg.Wait()
	for _, d := range []string{outside, inner} {
		if entries, _ := os.ReadDir(d); len(entries) != 0 {
			t.Errorf("%s got %d entries through a swapped link", d, len(entries))
		}
	}
}
