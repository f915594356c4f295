//go:build unix

package state

import (
	"os"
	"syscall"
	"time"
)

// lock takes an exclusive advisory lock (flock) on name, creating it if
// needed, trying without blocking until deadline: a blocking flock could
// not be given up. The kernel releases the lock when the holder exits, so
// a killed hook never leaves it held.
func lock(name string, deadline time.Time) (unlock func(), err error) {
	// By descriptor, not os.File: the lock is taken on the notice's path
	// and the armed fuse's, and an os.File would cost each a try at the
	// runtime's poller and its code pages.
	var fd int
	for {
		fd, err = syscall.Open(name, syscall.O_RDWR|syscall.O_CREAT|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0o644)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	// Closing twice must not close a descriptor reused in between.
	released := false
	release := func() {
		if !released {
			released = true
			syscall.Close(fd)
		}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		release()
		return nil, &os.PathError{Op: "lock", Path: name, Err: syscall.EINVAL}
	}
	for tries := 0; ; tries++ {
		err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return release, nil
		}
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
			release()
			return nil, err
		}
		if !time.Now().Before(deadline) {
			release()
			return nil, ErrLockTimeout
		}
		time.Sleep(min(lockPoll(tries), time.Until(deadline)+time.Millisecond))
	}
}
