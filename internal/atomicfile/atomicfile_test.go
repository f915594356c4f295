package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	for _, content := range []string{"one\n", "two, longer\n"} {
		if err := WriteFile(name, []byte(content), Options{Perm: 0o600, Sync: true}); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
		if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, want 0600", fi.Mode().Perm())
		}
	}
}

// TestFailedWriteKeepsTheOld: an error while writing leaves the old file
// whole and no temporary file behind.
func TestFailedWriteKeepsTheOld(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	if err := WriteFile(name, []byte("old\n"), Options{Perm: 0o644}); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(name, Options{Perm: 0o644}, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	if got, _ := os.ReadFile(name); string(got) != "old\n" {
		t.Errorf("content %q after a failed write", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}
