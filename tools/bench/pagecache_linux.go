//go:build linux && (amd64 || arm64)

package main

import (
	"fmt"
	"os"
	"syscall"
)

// evict drops the file's pages from the page cache (written back first),
// so that the next run of the program reads it from disk through its
// exec, as after a reboot or under memory pressure.
//
// Why it matters: how a binary's pages came into the page cache changes
// how fast it starts here, by more than the budgets' margins. The same
// bytes written by the linker (go build) or paged in by an exec start
// 7–13% slower than when written by cp or install(1), which leave larger
// folios that a fault maps at once (measured on Linux 6.18: the unarmed
// PreToolUse call 1.22× the floor with both programs exec-read, 1.10×
// with both copied; a floor copied against one exec-read, 0.94×). Left to
// chance, each program's state depends on what last wrote or read it, and
// their ratio moved by up to 0.1 between runs. Evicting both gives each
// run the same, and the slower, starting state.
func evict(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return err
	}
	const dontNeed = 4 // POSIX_FADV_DONTNEED
	if _, _, errno := syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, dontNeed, 0, 0); errno != 0 {
		return fmt.Errorf("fadvise %s: %v", path, errno)
	}
	return nil
}
