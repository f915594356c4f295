//go:build !unix

package state

import (
	"path/filepath"

	"github.com/muthur/context-budget/internal/atomicfile"
)

// checkDir reports whether the folder of name, a file of a state folder,
// opens through the project root without following a link (as open's
// does), for the systems whose lock opens its file by path.
func checkDir(name string) error {
	root, rel := split(filepath.Dir(name))
	d, err := atomicfile.OpenDirIn(root, rel, false)
	if err != nil {
		return err
	}
	return d.Close()
}
