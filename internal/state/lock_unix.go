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
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "lock", Path: name, Err: syscall.EINVAL}
	}
	for tries := 0; ; tries++ {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
			f.Close()
			return nil, err
		}
		if !time.Now().Before(deadline) {
			f.Close()
			return nil, ErrLockTimeout
		}
		time.Sleep(min(lockPoll(tries), time.Until(deadline)+time.Millisecond))
	}
}
