//go:build !linux || !(amd64 || arm64)

package atomicfile

import "os"

// swap renames tmp over name: where renameat2 is not at hand, a rename
// is what replaces a file.
func swap(r *os.Root, tmp, name string) error {
	return r.Rename(tmp, name)
}
