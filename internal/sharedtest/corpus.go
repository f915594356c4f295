package sharedtest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// EnvCorpus names a corpus folder to use instead of the one beside the
// repository (a worktree sits deeper than a clone).
const EnvCorpus = "CONTEXT_BUDGET_CORPUS"

// ErrNoCorpus reports that the corpus of real sessions is not beside the
// repository.
var ErrNoCorpus = errors.New("no corpus of real sessions beside the repository (../shared/data/corpus, or " + EnvCorpus + ")")

// CorpusDir returns the folder of real session skeletons: $CONTEXT_BUDGET_CORPUS
// when set, else ../shared/data/corpus from the folder holding go.mod.
func CorpusDir() (string, error) {
	if p := os.Getenv(EnvCorpus); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", ErrNoCorpus
		}
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, "..", "shared", "data", "corpus")
			if _, err := os.Stat(p); err != nil {
				return "", ErrNoCorpus
			}
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoCorpus
		}
		dir = parent
	}
}

// CorpusOrSkip returns the corpus folder, or skips tb when it is absent.
func CorpusOrSkip(tb testing.TB) string {
	tb.Helper()
	p, err := CorpusDir()
	if err != nil {
		tb.Skip(err)
	}
	return p
}
