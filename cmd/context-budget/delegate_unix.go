//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

const exeSuffix = ""

// run replaces this process with prog: the same streams, signals and exit
// status, no process left waiting. It returns only on failure.
func run(prog string, args []string) error {
	argv := append([]string{cliName}, args...)
	err := syscall.Exec(prog, argv, os.Environ())
	return fmt.Errorf("run %s: %w", prog, err)
}
