//go:build linux

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenIn: the one-call open takes a plain path under the root and
// refuses a link on the way, at the name, or a step out (the caller then
// asks os.Root, whose verdict stands).
func TestOpenIn(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "tmp", "context-budget")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fd, ok := OpenIn(root, "tmp/context-budget/s1.calls", syscall.O_WRONLY|syscall.O_CREAT, 0o644)
	if !ok {
		t.Skip("openat2 is not available here: writes under a root use os.Root alone")
	}
	syscall.Close(fd)
	if _, err := os.Stat(filepath.Join(dir, "s1.calls")); err != nil {
		t.Fatalf("the file was not created: %v", err)
	}
	os.Symlink("s1.calls", filepath.Join(dir, "s2.calls"))
	os.Symlink("context-budget", filepath.Join(root, "tmp", "via"))
	for _, rel := range []string{"tmp/context-budget/s2.calls", "tmp/via/s1.calls", "../x.calls", "/etc/passwd"} {
		if fd, ok := OpenIn(root, rel, syscall.O_WRONLY|syscall.O_CREAT, 0o644); ok {
			syscall.Close(fd)
			t.Errorf("%s: opened", rel)
		}
	}
	for _, rel := range []string{"tmp/via", "tmp/missing"} {
		if d, ok := openDirIn(root, rel); ok {
			d.Close()
			t.Errorf("folder %s: opened", rel)
		}
	}
}
