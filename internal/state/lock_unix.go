//go:build unix

package state

import (
	"os"
	"syscall"
	"time"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/reading"
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
	return flockBy(f, deadline)
}

// lockIn is lock for the file name of the folder r (at names it), opened
// as atomicfile.OpenFileIn opens it.
func lockIn(r *os.Root, name, at string, deadline time.Time) (unlock func(), err error) {
	f, err := atomicfile.OpenFileIn(r, name, at, os.O_RDWR|os.O_CREATE|nonBlock, 0o600)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: at, Err: reading.ErrNotRegular}
	}
	return flockBy(f, deadline)
}

// flockBy takes f's lock, trying without blocking until deadline; it
// closes f when it fails.
func flockBy(f *os.File, deadline time.Time) (unlock func(), err error) {
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
