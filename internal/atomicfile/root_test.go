package atomicfile

import (
	"io"
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

// WriteIn replaces a file at the root and one folders down, with its
// mode, leaving no temporary file; BeforeRename sees the temporary file
// by its path under root, and its error leaves the old content.
func TestWriteInReplaces(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"x", "a/b/y"} {
		for _, content := range []string{"one", "two"} {
			if err := WriteIn(root, rel, []byte(content), Options{Perm: 0o640}); err != nil {
				t.Fatal(err)
			}
		}
		name := filepath.Join(root, filepath.FromSlash(rel))
		data, err := os.ReadFile(name)
		if err != nil || string(data) != "two" {
			t.Fatalf("%s: %q, %v", rel, data, err)
		}
		if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %v", rel, fi.Mode())
		}
		var seen string
		err = WriteIn(root, rel, []byte("three"), Options{Perm: 0o640, BeforeRename: func(tmp string) error {
			seen = tmp
			if _, err := os.Stat(tmp); err != nil {
				t.Errorf("BeforeRename's path: %v", err)
			}
			return os.ErrDeadlineExceeded
		}})
		if err == nil || filepath.Dir(seen) != filepath.Dir(name) {
			t.Errorf("%s: the write went on (%v), or its temporary file %s was elsewhere", rel, err, seen)
		}
		if data, _ := os.ReadFile(name); string(data) != "two" {
			t.Errorf("%s: an abandoned write left %q", rel, data)
		}
		entries, _ := os.ReadDir(filepath.Dir(name))
		for _, e := range entries {
			if IsTemp(e.Name(), "") {
				t.Errorf("%s: left %s", rel, e.Name())
			}
		}
	}
}

// TestWriteInRootSwap: a write with Swap replaces the file as a rename
// does: the new content under the name, nothing left beside it, and the
// old file, held open or by another name, unchanged.
func TestWriteInRootSwap(t *testing.T) {
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	o := Options{Perm: 0o600, Swap: true}
	if err := WriteInRoot(r, dir, "s.spend", []byte("first\n"), o); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "s.spend")
	held, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := os.Link(name, filepath.Join(dir, "other")); err != nil {
		t.Skip("no hard links here:", err)
	}
	for _, data := range []string{"second, longer\n", "3\n"} {
		if err := WriteInRoot(r, dir, "s.spend", []byte(data), o); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(name); string(got) != data {
			t.Fatalf("after a swap: %q, want %q", got, data)
		}
	}
	if got, _ := io.ReadAll(held); string(got) != "first\n" {
		t.Errorf("the file held open reads %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "other")); string(got) != "first\n" {
		t.Errorf("the other name reads %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the folder holds %v, want s.spend and other", entries)
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}
