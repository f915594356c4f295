//go:build !unix && !windows

package state

import (
	"errors"
	"os"
	"time"
)

// nonBlock is 0 here: there is no non-blocking open.
const nonBlock = 0

// lock takes an exclusive lock by creating name exclusively, retrying
// until deadline. A lock is never removed by a waiter, however old: a
// waiter cannot tell a dead holder from a slow one, and taking a live
// holder's lock would send a notice twice.
func lock(name string, deadline time.Time) (unlock func(), err error) {
	// No link on the way (the lock itself opens by path here).
	if err := checkDir(name); err != nil {
		return nil, err
	}
	for tries := 0; ; tries++ {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		if !time.Now().Before(deadline) {
			return nil, ErrLockTimeout
		}
		time.Sleep(min(lockPoll(tries), time.Until(deadline)+time.Millisecond))
	}
}

// lockIn opens the lock by its path here, as lock does.
func lockIn(_ *os.Root, _, at string, deadline time.Time) (unlock func(), err error) {
	return lock(at, deadline)
}
