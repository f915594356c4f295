//go:build !linux

package main

import (
	"errors"
	"os"
)

// peakRSS needs Linux's /proc and ptrace; elsewhere the column is empty.
func peakRSS(bin string, args []string, payload []byte, env []string) (int64, error) {
	return 0, errors.New("peak RSS is measured on Linux only")
}

// minorFaults is not measured outside Linux.
func minorFaults(*os.ProcessState) int64 { return 0 }
