//go:build linux

package atomicfile

import (
	"io/fs"
	"os"
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

// OpenIn opens rel (slash-separated, "." for root itself) under the
// folder root with flags and perm, in one openat2 that refuses any
// symbolic link on the way or at rel and any step out of root: what
// os.Root does in a system call per component. ok is false when the
// kernel cannot (openat2 missing or filtered) or refuses (a link, a
// missing component), and the caller goes through os.Root, which decides
// as before.
func OpenIn(root, rel string, flags int, perm uint32) (fd int, ok bool) {
	dir, err := syscall.Open(root, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return -1, false
	}
	defer syscall.Close(dir)
	p, err := syscall.BytePtrFromString(rel)
	if err != nil {
		return -1, false
	}
	how := openHow{flags: uint64(flags) | syscall.O_CLOEXEC, mode: uint64(perm), resolve: resolveBeneath | resolveNoSymlinks}
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

// dirFiles is files relative to a folder opened by descriptor: the
// temporary file is created, renamed and removed by name in it, with no
// path walked again. Its files are os.Files of their descriptors, which
// the runtime does not try to poll.
type dirFiles struct{ fd int }

// openDirIn opens dir (slash-separated, "" for root) under root as OpenIn
// does; ok is false when the caller must go through os.Root.
func openDirIn(root, dir string) (dirFiles, bool) {
	if dir == "" {
		dir = "."
	}
	fd, ok := OpenIn(root, dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	return dirFiles{fd}, ok
}

func (d dirFiles) Close() error { return syscall.Close(d.fd) }

func (d dirFiles) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Openat(d.fd, name, flag|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}

func (d dirFiles) Rename(oldname, newname string) error {
	if err := syscall.Renameat(d.fd, oldname, d.fd, newname); err != nil {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err}
	}
	return nil
}

func (d dirFiles) Remove(name string) error {
	if err := syscall.Unlinkat(d.fd, name); err != nil {
		return &os.PathError{Op: "remove", Path: name, Err: err}
	}
	return nil
}
