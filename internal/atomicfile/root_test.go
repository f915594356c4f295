package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Writes stay under their root: a folder on the way that is a symbolic
// link out of it gets nothing (issue 20, class 7).
func TestWriteInRefusesLinkOut(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "state")); err != nil {
		t.Skip(err)
	}
	if err := WriteIn(root, "state/x", []byte("hi"), Options{Perm: 0o644}); err == nil {
		t.Error("wrote through a link out of the root")
	}
	if err := MkdirIn(root, "state/sub"); err == nil {
		t.Error("made a folder through a link out of the root")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the outside folder got %d entries", len(entries))
	}
	// A link at the name itself is replaced, not written through.
	target := filepath.Join(outside, "target")
	os.WriteFile(target, []byte("theirs"), 0o644)
	os.Mkdir(filepath.Join(root, "in"), 0o755)
	os.Symlink(target, filepath.Join(root, "in", "f"))
	if err := WriteIn(root, "in/f", []byte("ours"), Options{Perm: 0o644}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(target); string(data) != "theirs" {
		t.Errorf("the link's target was written: %q", data)
	}
}

// A temporary file a killed writer left is cleaned once a minute old; a
// fresh one, one a live writer holds, and other dot files are kept
// (issue 20, class 10).
func TestClean(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "d")
	os.Mkdir(dir, 0o755)
	old := time.Now().Add(-2 * StaleAge)
	mk := func(name string, aged bool) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("x"), 0o644)
		if aged {
			os.Chtimes(p, old, old)
		}
		return p
	}
	stale := mk(".s1.123456", true)
	fresh := mk(".s1.654321", false)
	held := mk(".s2.777", true)
	gitignore := mk(".gitignore", true)
	other := mk(".notes.txt", true)
	f, err := os.Open(held)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	holdLock(f)
	Clean(root, "d", "")
	for _, tc := range []struct {
		name string
		want bool
	}{{stale, false}, {fresh, true}, {gitignore, true}, {other, true}} {
		if _, err := os.Stat(tc.name); (err == nil) != tc.want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(tc.name), err == nil, tc.want)
		}
	}
	if _, err := os.Stat(held); err != nil && lockWorks {
		t.Errorf("a live writer's temporary file was removed")
	}
}

func TestIsTemp(t *testing.T) {
	for _, tc := range []struct {
		name, suffix string
		want         bool
	}{
		{".s1.123", "", true}, {".s1.json.99.tmp", ".tmp", true}, {".gitignore", "", false}, {"s1.123", "", false},
		{".s1.", "", false}, {".s1.12a", "", false}, {".123", "", false}, {".s1.json.tmp", ".tmp", false},
	} {
		if got := IsTemp(tc.name, tc.suffix); got != tc.want {
			t.Errorf("IsTemp(%q, %q) = %v", tc.name, tc.suffix, got)
		}
	}
}
