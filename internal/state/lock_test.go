package state

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// A held lock makes a waiter give up at its deadline, never take it:
// flock without a bound used to wait forever, and the non-Unix build took
// the lock from its holder after 2 s (issue 20, class 4).
func TestLockBounded(t *testing.T) {
	name := filepath.Join(t.TempDir(), "s1.lock")
	unlock, err := LockBy(name, time.Now().Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = LockBy(name, time.Now().Add(200*time.Millisecond))
	took := time.Since(start)
	if !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("a held lock: %v, want ErrLockTimeout", err)
	}
	if took < 150*time.Millisecond || took > 2*time.Second {
		t.Errorf("gave up after %v, want about 200ms", took)
	}
	// Past any age a stealer would use, the holder still holds it.
	if runtime.GOOS != "windows" {
		if _, err := LockBy(name, time.Now().Add(2100*time.Millisecond)); !errors.Is(err, ErrLockTimeout) {
			t.Errorf("after 2.1 s: %v, want the lock still held", err)
		}
	}
	unlock()
	u2, err := LockBy(name, time.Now().Add(time.Second))
	if err != nil {
		t.Fatalf("a freed lock: %v", err)
	}
	u2()
}

// A lock file planted as a symbolic link (dangling, or to a file outside)
// is not followed: its target is not created (issue 20, class 7).
func TestLockRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "created-by-the-hook")
	name := filepath.Join(dir, "s1.lock")
	if err := os.Symlink(outside, name); err != nil {
		t.Skip(err)
	}
	if _, err := LockBy(name, time.Now().Add(100*time.Millisecond)); err == nil {
		t.Error("locked through a symbolic link")
	}
	if _, err := os.Lstat(outside); !os.IsNotExist(err) {
		t.Errorf("the link's target was created: %v", err)
	}
	if got, err := Advance(dir, "s1", 500, std); err == nil || got != None {
		t.Errorf("Advance through a linked lock = %v, %v; want None and an error", got, err)
	}
}
