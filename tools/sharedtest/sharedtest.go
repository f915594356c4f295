// Package sharedtest finds, for tests, the real Claude Code transcripts
// that live beside the repository, in ../shared/data/transcripts (CI lays
// shared/ next to its clone; they are not copied into the repository). A
// test that needs them skips with a clear message when they are absent, so
// a newcomer's `make test` still passes.
package sharedtest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// ErrAbsent reports that the shared transcripts are not beside the
// repository.
var ErrAbsent = errors.New("no shared transcripts beside the repository (../shared/data/transcripts)")

// Dir returns the folder of shared transcripts: ../shared/data/transcripts
// from the folder holding go.mod, above the working directory.
func Dir() (string, error) {
	if os.Getenv(EnvShared) != "" {
		return sharedData("transcripts", ErrAbsent)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, "..", "shared", "data", "transcripts")
			if _, err := os.Stat(p); err != nil {
				return "", ErrAbsent
			}
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrAbsent
		}
		dir = parent
	}
}

// DirOrSkip returns the folder, or skips tb when it is absent.
func DirOrSkip(tb testing.TB) string {
	tb.Helper()
	p, err := Dir()
	if err != nil {
		tb.Skip(err)
	}
	return p
}
