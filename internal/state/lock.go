package state

import (
	"errors"
	"os"
	"time"
)

// LockWait bounds a lock wait for a caller that names no deadline: far
// past the few milliseconds a holder keeps a lock, short enough that a
// lock held by a stuck process costs a hook call a second, not forever.
const LockWait = time.Second

// ErrLockTimeout reports a lock still held by another process at the
// deadline. The lock is never taken from its holder: the caller goes
// without (for the hook: nothing recorded, nothing sent).
var ErrLockTimeout = errors.New("lock still held at the deadline")

// Lock takes an exclusive lock on the file name, creating it if needed,
// and waits for it up to LockWait; unlock releases it. Other packages keep
// their own per-session records in this folder under the same kind of
// lock.
func Lock(name string) (unlock func(), err error) {
	return LockBy(name, time.Now().Add(LockWait))
}

// LockBy is Lock with a deadline for the wait: ErrLockTimeout when the
// lock is still held then. The lock file is opened without following a
// symbolic link, so a link planted in its place creates nothing.
func LockBy(name string, deadline time.Time) (unlock func(), err error) {
	return lock(name, deadline)
}

// LockIn is LockBy for the file name (one component) of the folder r,
// at being its path: the lock is opened as atomicfile.OpenFileIn opens a
// file, no link followed at name (on the systems whose lock opens its
// file by path, at is opened as LockBy opens it). A lock holds no data:
// what other names it has does not matter.
func LockIn(r *os.Root, name, at string, deadline time.Time) (unlock func(), err error) {
	return lockIn(r, name, at, deadline)
}

// lockPoll is the interval between tries: holders keep a lock for a few
// milliseconds (a read, a decision, a rename).
func lockPoll(tries int) time.Duration {
	return min(time.Duration(tries+1)*time.Millisecond, 10*time.Millisecond)
}
