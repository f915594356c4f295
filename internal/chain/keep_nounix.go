//go:build !unix

package chain

import (
	"fmt"
	"io"
	"os"
	"os/exec"
)

// Keep runs argv and passes its exit status through: Windows has no
// subreaper, and the runner does not use a keeper there.
func Keep(argv []string, stderr io.Writer) int {
	if len(argv) == 0 {
		fmt.Fprintln(stderr, "context-budget: keep: no program given")
		return 2
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		fmt.Fprintf(stderr, "context-budget: keep: %v\n", err)
		return 127
	}
	return cmd.ProcessState.ExitCode()
}
