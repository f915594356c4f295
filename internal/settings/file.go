package settings

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/reading"
)

// Read reads and parses a settings file. A missing file is an empty
// object and nil data; a file that does not parse is an error and is to
// be left as it is.
func Read(name string) (o *Object, data []byte, err error) {
	data, err = reading.ReadFile(name, reading.MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return NewObject(), nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	o, err = Parse(data)
	if err != nil {
		return nil, data, err
	}
	return o, data, nil
}

// BackupName is where Write keeps the previous content of name: one
// backup, replaced by each change.
func BackupName(name string) string { return name + ".bak" }

// Write replaces name with data atomically (temp file in the same
// folder, then rename), keeping the file's permissions and following a
// symlink to the file it names. When old is not
// nil it is first saved to BackupName(name).
func Write(name string, data, old []byte) error {
	// A settings file kept in a dotfiles folder is often a symlink; write
	// through it rather than replace the link with a file.
	if real, err := filepath.EvalSymlinks(name); err == nil {
		name = real
	}
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		perm = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	if old != nil {
		if err := atomicWrite(BackupName(name), old, perm); err != nil {
			return err
		}
	}
	return atomicWrite(name, data, perm)
}

func atomicWrite(name string, data []byte, perm fs.FileMode) error {
	return atomicfile.WriteFile(name, data, atomicfile.Options{Perm: perm, Sync: true})
}
