//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// holdLock locks a temporary file for as long as it is open: its writer
// is alive. The kernel drops the lock when the writer dies.
func holdLock(f *os.File) {
	syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// tryLock reports whether nobody holds f's lock (taking it).
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// lockWorks says whether a live writer's lock can be seen.
const lockWorks = true
