//go:build linux

package state

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenInRoot: the one-call open takes a plain path under the root and
// refuses a link on the way, at the name, or a step out (the caller then
// asks os.Root, whose verdict stands).
func TestOpenInRoot(t *testing.T) {
	root := t.TempDir()
	if err := Ensure(Dir(root)); err != nil {
		t.Fatal(err)
	}
	fd, ok := openInRoot(root, "tmp/context-budget/s1.calls", 0o644)
	if !ok {
		t.Skip("openat2 is not available here: WriteInPlace uses os.Root alone")
	}
	syscall.Close(fd)
	if _, err := os.Stat(filepath.Join(Dir(root), "s1.calls")); err != nil {
		t.Fatalf("the file was not created: %v", err)
	}
	os.Symlink("s1.calls", filepath.Join(Dir(root), "s2.calls"))
	os.Symlink("context-budget", filepath.Join(root, "tmp", "via"))
	for _, rel := range []string{"tmp/context-budget/s2.calls", "tmp/via/s1.calls", "../x.calls", "/etc/passwd"} {
		if fd, ok := openInRoot(root, rel, 0o644); ok {
			syscall.Close(fd)
			t.Errorf("%s: opened", rel)
		}
	}
}
