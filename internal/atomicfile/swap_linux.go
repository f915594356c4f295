//go:build linux && (amd64 || arm64)

package atomicfile

import (
	"os"
	"syscall"
	"unsafe"
)

// swap puts tmp in the place of name in r: the two exchanged
// (renameat2's RENAME_EXCHANGE), then the old one, now at tmp, removed;
// a plain rename where name is not there yet or the file system cannot
// exchange. The old one left behind, should its removal fail, is a
// temporary file Clean removes.
func swap(r *os.Root, tmp, name string) error {
	d, err := r.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	from, err := syscall.BytePtrFromString(tmp)
	if err != nil {
		return err
	}
	to, err := syscall.BytePtrFromString(name)
	if err != nil {
		return err
	}
	const renameExchange = 2
	fd := d.Fd()
	_, _, e := syscall.Syscall6(sysRenameat2, fd, uintptr(unsafe.Pointer(from)), fd, uintptr(unsafe.Pointer(to)), renameExchange, 0)
	if e != 0 {
		return r.Rename(tmp, name)
	}
	r.Remove(tmp)
	return nil
}
