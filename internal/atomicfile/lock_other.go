//go:build !unix

package atomicfile

import "os"

// holdLock does nothing here: without flock the age alone tells a stale
// temporary file.
func holdLock(*os.File) {}

func tryLock(*os.File) bool { return true }

const lockWorks = false
