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
	if _, err := LockBy(name, time.Now().Add(200*time.Millisecond)); !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("a held lock: %v, want ErrLockTimeout", err)
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
}

// A state folder that is a symbolic link out of the project (committed
// and cloned) gets no file and no .gitignore: state used to replace a
// file there and drop a .gitignore of "*" into it (issue 20, class 7).
func TestEnsureRefusesLinkOut(t *testing.T) {
	for _, link := range []string{"tmp/context-budget", "tmp"} {
		root, outside := t.TempDir(), t.TempDir()
		os.WriteFile(filepath.Join(outside, "s1"), []byte("theirs\n"), 0o644)
		at := filepath.Join(root, filepath.FromSlash(link))
		os.MkdirAll(filepath.Dir(at), 0o755)
		if err := os.Symlink(outside, at); err != nil {
			t.Skip(err)
		}
		dir := Dir(root)
		if err := Ensure(dir); err == nil {
			t.Errorf("%s linked out: Ensure made the folder", link)
		}
		if err := WriteFile(filepath.Join(dir, "s1.line"), []byte("x")); err == nil {
			t.Errorf("%s linked out: WriteFile wrote", link)
		}
		entries, _ := os.ReadDir(outside)
		if len(entries) != 1 {
			t.Errorf("%s linked out: the outside folder holds %d entries, want its own one", link, len(entries))
		}
		if data, _ := os.ReadFile(filepath.Join(outside, "s1")); string(data) != "theirs\n" {
			t.Errorf("%s linked out: the outside file was replaced: %q", link, data)
		}
	}
}
