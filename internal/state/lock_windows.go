//go:build windows

package state

import (
	"os"
	"syscall"
	"time"
)

// nonBlock is 0 here: there is no non-blocking open.
const nonBlock = 0

// lock takes an exclusive lock on name by opening it with no sharing: a
// second open fails with a sharing violation until the holder closes it,
// and Windows closes it when the holder exits, so a killed hook never
// leaves it held. Until deadline the open is retried; the lock is never
// taken from its holder.
func lock(name string, deadline time.Time) (unlock func(), err error) {
	// No link on the way (the lock itself opens by path here).
	if err := checkDir(name); err != nil {
		return nil, err
	}
	p, err := syscall.UTF16PtrFromString(name)
	if err != nil {
		return nil, err
	}
	for tries := 0; ; tries++ {
		h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE, 0, nil,
			syscall.OPEN_ALWAYS, syscall.FILE_ATTRIBUTE_NORMAL|syscall.FILE_FLAG_OPEN_REPARSE_POINT, 0)
		if err == nil {
			return func() { syscall.CloseHandle(h) }, nil
		}
		if err != errSharingViolation && err != syscall.ERROR_ACCESS_DENIED {
			return nil, &os.PathError{Op: "lock", Path: name, Err: err}
		}
		if !time.Now().Before(deadline) {
			return nil, ErrLockTimeout
		}
		time.Sleep(min(lockPoll(tries), time.Until(deadline)+time.Millisecond))
	}
}

// errSharingViolation is ERROR_SHARING_VIOLATION, which package syscall
// does not name.
const errSharingViolation = syscall.Errno(32)

// lockIn opens the lock by its path here, as lock does.
func lockIn(_ *os.Root, _, at string, deadline time.Time) (unlock func(), err error) {
	return lock(at, deadline)
}
