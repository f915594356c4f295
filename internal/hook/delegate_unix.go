//go:build unix

package hook

import (
	"fmt"
	"os"
	"syscall"
)

// run replaces this process with prog: the same streams, signals and exit
// status, no process left waiting. It returns only on failure.
func run(prog string, args []string) error {
	argv := append([]string{FullName}, args...)
	err := syscall.Exec(prog, argv, os.Environ())
	return fmt.Errorf("run %s: %w", prog, err)
}
