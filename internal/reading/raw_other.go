//go:build !unix

package reading

import "os"

// regular is a regular file opened for reading (see raw_unix.go); here an
// *os.File.
type regular struct{ *os.File }

func openRegular(path string) (regular, int64, error) {
	f, fi, err := Open(path)
	if err != nil {
		return regular{}, 0, err
	}
	return regular{f}, fi.Size(), nil
}

// Size is the file's size now.
func (f regular) Size() (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
