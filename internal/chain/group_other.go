//go:build !unix

package chain

import (
	"os"
	"os/exec"
)

func ownGroup(*exec.Cmd) {}

func signalGroup(cmd *exec.Cmd, sig os.Signal) { cmd.Process.Signal(sig) }

func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
