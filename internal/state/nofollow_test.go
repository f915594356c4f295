package state

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A link planted at a state file's name is refused, and its target
// untouched: the spend tally is written in place through OpenNoFollow.
func TestOpenNoFollowRefusesLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges here")
	}
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "outside")
	os.WriteFile(outside, []byte("keep"), 0o644)
	name := filepath.Join(dir, "s1.spend")
	if err := os.Symlink(outside, name); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenNoFollow(name); err == nil {
		f.Close()
		t.Fatal("opened a file through a planted link")
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep" {
		t.Errorf("the link's target changed: %q", data)
	}
	f, err := OpenNoFollow(filepath.Join(dir, "s2.spend"))
	if err != nil {
		t.Fatalf("a plain new file: %v", err)
	}
	f.Close()
}
