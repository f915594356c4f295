//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

const exeSuffix = ""

// run replaces this process with cli: the same streams, signals and exit
// status, no process left waiting. It returns only on failure.
func run(cli string, args []string) error {
	argv := append([]string{cliName}, args...)
	err := syscall.Exec(cli, argv, os.Environ())
	return fmt.Errorf("run %s: %w", cli, err)
}
