package fuse

// The fuse's folder by what it is, not by its name (design §13, turn 4):
// the folder of a project's state is reached from the state root
// (<config>/context-budget) with no link on the way, its files are read
// only when they are regular files with one name, and they are written by
// replacing them. So a hard link made while no cap was armed, a process
// holding a file open, or a link planted on the way never reaches the
// state the fuse decides from: a file with a second name is refused (the
// call fails closed, naming it), and a replaced file is one no other name
// or open file shares. The config folder itself is followed: dotfile
// managers link ~/.claude.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
)

// folder is the fuse's folder of one project (Dir), open.
type folder struct {
	dir string
	r   *os.Root
}

// The refusals of a state file, said of it ("its tally (…) cannot be
// read: it is …"): a link at its name, not a regular file, another name
// (whoever holds that name can change what the fuse reads), too large.
var (
	errIsLink     = errors.New("it is a symbolic link, not a file of the fuse's own")
	errNotRegular = errors.New("it is not a regular file")
	errLinks      = errors.New("it has more than one name (a hard link): another name could change it")
	errTooLarge   = errors.New("it is larger than a file of its kind may be")
)

// rel is the fuse's folder of a project below its config folder, and the
// config folder: dir is <config>/context-budget/fuse/<key>.
func rel(dir string) (config, below string) {
	key := filepath.Base(dir)
	root := filepath.Dir(filepath.Dir(dir))
	return filepath.Dir(root), filepath.Base(root) + "/fuse/" + key
}

// openFolder opens the fuse's folder dir (Dir) from its config folder
// without following a link below it; create makes what is missing,
// private to the user. A folder on the way that is a link or not a
// folder at all is an error that says so (notFolder); without create, a
// missing one is fs.ErrNotExist.
func openFolder(dir string, create bool) (*folder, error) {
	if dir == "" {
		return nil, errors.New("no config folder: neither CLAUDE_CONFIG_DIR nor HOME is set")
	}
	config, below := rel(dir)
	if create {
		if err := os.MkdirAll(config, 0o700); err != nil {
			return nil, err
		}
	}
	r, err := atomicfile.OpenDirInMode(config, below, create, 0o700)
	if err != nil {
		return nil, notFolder(err)
	}
	return &folder{dir: dir, r: r}, nil
}

// notFolder says what is wrong with a folder on the way, when it is
// there and is not a real folder.
func notFolder(err error) error {
	var pe *fs.PathError
	switch {
	case !errors.As(err, &pe):
		return err
	case errors.Is(err, atomicfile.ErrLink):
		return fmt.Errorf("%s is a symbolic link, not the fuse's own folder", pe.Path)
	case errors.Is(err, atomicfile.ErrNotDir):
		return fmt.Errorf("%s is not a folder", pe.Path)
	}
	return err
}

func (fo *folder) close() {
	if fo != nil {
		fo.r.Close()
	}
}

// path is a file's path in the folder, for messages.
func (fo *folder) path(name string) string { return filepath.Join(fo.dir, name) }

// read returns the content of the file name, refusing one of more than
// max bytes, one that is not a regular file (a link at name included)
// and one with another name (errLinks). A missing file is
// fs.ErrNotExist.
func (fo *folder) read(name string, max int64) ([]byte, error) {
	f, err := atomicfile.OpenFileIn(fo.r, name, fo.path(name), os.O_RDONLY|nonBlock, 0)
	if errors.Is(err, atomicfile.ErrLink) {
		return nil, errIsLink
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOwn(f, max)
}

// readOwn reads an open state file: a regular file of one name, at most
// max bytes.
func readOwn(f *os.File, max int64) ([]byte, error) {
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, errNotRegular
	case links(fi) > 1:
		return nil, errLinks
	case fi.Size() > max:
		return nil, errTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = errTooLarge
	}
	return data, err
}

// write replaces the file name with data: a new file swapped in for it
// (atomicfile's Swap: a rename over it costs a flush on ext4, which a
// write on every call cannot pay), so that no other name or open file of
// the old one sees the new content.
func (fo *folder) write(name string, data []byte) error {
	return atomicfile.WriteInRoot(fo.r, fo.dir, name, data, atomicfile.Options{Perm: 0o600, Swap: true})
}

// remove removes the file name; a missing one is no error.
func (fo *folder) remove(name string) error {
	if err := fo.r.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// lock takes the lock name in the folder, waiting until by (zero: the
// state package's LockWait).
func (fo *folder) lock(name string, by time.Time) (func(), error) {
	if by.IsZero() {
		by = time.Now().Add(state.LockWait)
	}
	return state.LockIn(fo.r, name, fo.path(name), by)
}

// peekArm reads a session's arm file as cheaply as the unarmed call
// must (peekFile). An error says what the fuse could not use.
func peekArm(dir, session string) (a Arm, ok bool, err error) {
	data, ok, err := peekFile(dir, session+ArmSuffix, "its state folder", "its arm file")
	if err != nil || !ok {
		return Arm{}, false, err
	}
	if a, ok, err = parseArm(data); err != nil {
		return Arm{}, false, fmt.Errorf("its arm file (%s) cannot be read: %w", FileName(dir, session), err)
	}
	return a, ok, nil
}

// CachePrices keeps t, the price table the full program merged from
// override files that had this stamp, in the fuse's folder of a project
// for the hook (prices.ForHook), unless the folder holds it already: the
// fuse prices from its own copy, out of the agent's tree, so that no file
// the agent can write sets what a response costs against a cap.
func CachePrices(getenv func(string) string, root, stamp string, t *prices.Table) error {
	fo, err := openFolder(Dir(getenv, root), true)
	if err != nil {
		return err
	}
	defer fo.close()
	data, err := fo.read(prices.CacheName, reading.MaxCacheFile)
	if _, ok := prices.FromCache(data, err, stamp); ok {
		return nil
	}
	return fo.write(prices.CacheName, prices.CacheData(stamp, t))
}
