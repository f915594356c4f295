//go:build !unix

package hook

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// run starts prog with this process's streams, waits, and exits with its
// status. It returns only when prog could not be started.
func run(prog string, args []string) error {
	cmd := exec.Command(prog, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err == nil || errors.As(err, &exit) {
		os.Exit(cmd.ProcessState.ExitCode())
	}
	return fmt.Errorf("run %s: %w", prog, err)
}
