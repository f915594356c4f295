//go:build unix

package state

import (
	"os"
	"syscall"
	"time"
)

// nonBlock opens a FIFO without waiting for the other end (the open then
// fails, or the file is refused as not regular).
const nonBlock = syscall.O_NONBLOCK

// lock takes an exclusive advisory lock (flock) on name, creating it if
// needed (as open does: no link followed on the way or at name), trying
// without blocking until deadline: a blocking flock could not be given
// up. The kernel releases the lock when the holder exits, so a killed
// hook never leaves it held.
func lock(name string, deadline time.Time) (unlock func(), err error) {
	f, err := open(name, os.O_RDWR|os.O_CREATE|nonBlock)
	if err != nil {
		return nil, err
	}
	release := func() { f.Close() }
	fd := int(f.Fd())
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
