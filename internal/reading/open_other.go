//go:build !unix

package reading

import "os"

// openNoBlock opens path read-only, refusing first what is not a regular
// file: there is no non-blocking open here.
func openNoBlock(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &os.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return os.Open(path)
}
