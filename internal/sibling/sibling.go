// Package sibling finds the programs context-budget runs as children
// (context-budget-cli, context-budget-operator, context-budget-telemetry):
// beside the running program, where make install and go install put them
// all, else on PATH.
package sibling

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Find returns the program name: a regular, executable file beside the
// running program, else the one exec.LookPath finds on PATH (which
// refuses a match through a relative PATH entry: it could run a program
// from the project's tree).
func Find(name string) (string, error) {
	file := name
	if runtime.GOOS == "windows" {
		file += ".exe"
	}
	if exe, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(exe), file)
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode()&0o111 != 0) {
			return beside, nil
		}
	}
	return exec.LookPath(name)
}
