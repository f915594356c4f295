package settings

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/muthur/context-budget/internal/atomicfile"
)

// WriteIn writes a project's file with no link followed below the root:
// a linked .claude, file or backup is refused and nothing is made where
// it points; plain folders are made and the old content kept beside
// (issue 31, class 3).
func TestWriteIn(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges here")
	}
	for _, tc := range []struct {
		name  string
		setup func(root, outside string)
	}{
		{".claude out", func(root, outside string) { os.Symlink(outside, filepath.Join(root, ".claude")) }},
		{".claude in", func(root, outside string) {
			os.Mkdir(filepath.Join(root, "real"), 0o755)
			os.Symlink("real", filepath.Join(root, ".claude"))
		}},
		{"file out", func(root, outside string) {
			os.Mkdir(filepath.Join(root, ".claude"), 0o755)
			os.Symlink(filepath.Join(outside, "s.json"), filepath.Join(root, ".claude", "settings.json"))
		}},
		{"backup out", func(root, outside string) {
			os.Mkdir(filepath.Join(root, ".claude"), 0o755)
			os.Symlink(filepath.Join(outside, "s.bak"), filepath.Join(root, ".claude", "settings.json.bak"))
		}},
	} {
		root, outside := t.TempDir(), t.TempDir()
		tc.setup(root, outside)
		name := filepath.Join(root, ".claude", "settings.json")
		if err := CheckIn(root, name); !errors.Is(err, atomicfile.ErrLink) {
			t.Errorf("%s: CheckIn: %v, want ErrLink", tc.name, err)
		}
		if err := WriteIn(root, name, []byte("{}\n"), []byte("{\"old\":1}\n")); !errors.Is(err, atomicfile.ErrLink) {
			t.Errorf("%s: WriteIn: %v, want ErrLink", tc.name, err)
		}
		if entries, _ := os.ReadDir(outside); len(entries) != 0 {
			t.Errorf("%s: made %d entries outside", tc.name, len(entries))
		}
		if entries, _ := os.ReadDir(filepath.Join(root, "real")); len(entries) != 0 {
			t.Errorf("%s: made %d entries in the link's target", tc.name, len(entries))
		}
	}
	root := t.TempDir()
	name := filepath.Join(root, ".claude", "skills", "relay", "SKILL.md")
	if err := WriteIn(root, name, []byte("one\n"), nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteIn(root, name, []byte("two\n"), []byte("one\n")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(BackupName(name)); string(data) != "one\n" {
		t.Errorf("backup %q", data)
	}
	if err := RemoveIn(root, name); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Errorf("not removed: %v", err)
	}
	if err := WriteIn(root, filepath.Join(t.TempDir(), "x"), nil, nil); err == nil {
		t.Error("wrote a file outside the project")
	}
}
