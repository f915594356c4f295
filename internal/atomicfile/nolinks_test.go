package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// OpenDirIn follows no link below its root, pointing in or out of it,
// and makes nothing at a link's target; OpenFileIn neither (issue 31,
// class 3).
func TestNoLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges here")
	}
	root, outside := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(root, "a", "inner"), 0o755)
	os.Symlink("inner", filepath.Join(root, "a", "in"))         // inside
	os.Symlink(outside, filepath.Join(root, "a", "out"))        // outside
	os.Symlink("../a", filepath.Join(root, "a", "inner", "up")) // a loop back
	for _, rel := range []string{"a/in", "a/out", "a/in/x", "a/out/x", "a/inner/up", "a/inner/up/inner"} {
		for _, create := range []bool{false, true} {
			r, err := OpenDirIn(root, rel, create)
			if err == nil {
				r.Close()
				t.Errorf("%s (create %v): opened through a link", rel, create)
			} else if !errors.Is(err, ErrLink) {
				t.Errorf("%s (create %v): %v, want ErrLink", rel, create, err)
			}
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("made %d entries outside", len(entries))
	}
	if entries, _ := os.ReadDir(filepath.Join(root, "a", "inner")); len(entries) != 1 {
		t.Errorf("made entries in the link's target: %v", entries)
	}
	// Plain folders open, and are made with create.
	r, err := OpenDirIn(root, "b/c/d", true)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if fi, err := os.Stat(filepath.Join(root, "b", "c", "d")); err != nil || !fi.IsDir() {
		t.Fatalf("b/c/d not made: %v", err)
	}
	if _, err := OpenDirIn(root, "missing", false); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing folder without create: %v", err)
	}

	// A file: a link at its name, dangling or not, is refused and its
	// target not made; a plain file opens; a missing one is made.
	os.Symlink(filepath.Join(outside, "made"), filepath.Join(root, "b", "c", "d", "dangling"))
	os.WriteFile(filepath.Join(root, "victim"), []byte("mine"), 0o644)
	os.Symlink("../../../victim", filepath.Join(root, "b", "c", "d", "inner"))
	for _, name := range []string{"dangling", "inner"} {
		if f, err := OpenFileIn(r, name, name, os.O_RDWR|os.O_CREATE, 0o644); err == nil || !errors.Is(err, ErrLink) {
			if f != nil {
				f.Close()
			}
			t.Errorf("%s: %v, want ErrLink", name, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(outside, "made")); !os.IsNotExist(err) {
		t.Errorf("the dangling link's target was made: %v", err)
	}
	f, err := OpenFileIn(r, "new", "new", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	f, err = OpenFileIn(r, "new", "new", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := OpenFileIn(r, "absent", "absent", os.O_RDWR, 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file without O_CREATE: %v", err)
	}
}
