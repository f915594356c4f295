//go:build linux

package state

import (
	"syscall"
	"unsafe"
)

// openHow is the kernel's struct open_how (openat2(2)).
type openHow struct {
	flags   uint64
	mode    uint64
	resolve uint64
}

const (
	sysOpenat2        = 437 // the same number on every Linux architecture
	resolveNoSymlinks = 0x04
	resolveBeneath    = 0x08
)

// openInRoot opens rel under the folder root for writing, creating it,
// in one openat2 that refuses any symbolic link on the way or at rel and
// any step out of root: what os.Root does in a system call per
// component. ok is false when the kernel cannot (openat2 missing or
// filtered) or refuses a link, and the caller goes through os.Root, which
// decides as before.
func openInRoot(root, rel string, perm uint32) (fd int, ok bool) {
	dir, err := syscall.Open(root, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return -1, false
	}
	defer syscall.Close(dir)
	p, err := syscall.BytePtrFromString(rel)
	if err != nil {
		return -1, false
	}
	how := openHow{flags: syscall.O_WRONLY | syscall.O_CREAT | syscall.O_CLOEXEC, mode: uint64(perm),
		resolve: resolveBeneath | resolveNoSymlinks}
	for {
		r, _, errno := syscall.Syscall6(sysOpenat2, uintptr(dir), uintptr(unsafe.Pointer(p)),
			uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return -1, false
		}
		return int(r), true
	}
}

// writeInPlaceFast is WriteInPlace through openInRoot and the descriptor
// alone; handled is false when it did not open the file, and nothing was
// written.
func writeInPlaceFast(root, rel string, data []byte) (handled bool, err error) {
	fd, ok := openInRoot(root, rel, 0o644)
	if !ok {
		return false, nil
	}
	n := 0
	for n < len(data) && err == nil {
		var m int
		m, err = syscall.Pwrite(fd, data[n:], int64(n))
		if err == syscall.EINTR {
			err = nil
		}
		n += m
	}
	if err == nil {
		for {
			err = syscall.Ftruncate(fd, int64(len(data)))
			if err != syscall.EINTR {
				break
			}
		}
	}
	if cerr := syscall.Close(fd); err == nil {
		err = cerr
	}
	return true, err
}
