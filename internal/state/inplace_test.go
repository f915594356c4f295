package state

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// WriteInPlace writes through the project root: a state folder that links
// out of the project, or a link at the file's name (out of the project or
// in it), gets nothing written where it points.
func TestWriteInPlaceStaysInside(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges here")
	}
	root := t.TempDir()
	dir := Dir(root)
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "s1.calls")
	for _, data := range []string{"sig 12\n", "sig 3\n"} {
		if err := WriteInPlace(name, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(name); string(got) != data {
			t.Fatalf("got %q, want %q", got, data)
		}
	}
	outside := filepath.Join(t.TempDir(), "target")
	os.WriteFile(outside, []byte("keep"), 0o644)
	link := filepath.Join(dir, "s2.calls")
	os.Symlink(outside, link)
	if err := WriteInPlace(link, []byte("x 1\n")); err == nil {
		t.Error("wrote through a link out of the project")
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep" {
		t.Errorf("the link's target changed: %q", data)
	}
	// A link to a file inside the project is refused too: the open would
	// follow it, and the in-place write overwrite that file.
	mine := filepath.Join(root, "README.md")
	os.WriteFile(mine, []byte("mine"), 0o644)
	inner := filepath.Join(dir, "s4.calls")
	os.Symlink(mine, inner)
	if err := WriteInPlace(inner, []byte("x 1\n")); err == nil {
		t.Error("wrote through a link inside the project")
	}
	if data, _ := os.ReadFile(mine); string(data) != "mine" {
		t.Errorf("the project file changed: %q", data)
	}
	other := t.TempDir()
	root2 := t.TempDir()
	os.MkdirAll(filepath.Join(root2, "tmp"), 0o755)
	os.Symlink(other, Dir(root2))
	if err := WriteInPlace(filepath.Join(Dir(root2), "s3.calls"), []byte("x 1\n")); err == nil {
		t.Error("wrote into a state folder that links out of the project")
	}
	if entries, _ := os.ReadDir(other); len(entries) != 0 {
		t.Errorf("files appeared outside the project: %v", entries)
	}
}
