package sharedtest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// EnvShared names the variable that points at the shared folder when it
// is not beside the repository (a worktree elsewhere): the folder holding
// data/corpus and data/transcripts.
const EnvShared = "CONTEXT_BUDGET_SHARED"

// EnvCorpus names a corpus folder to use instead of the shared one.
const EnvCorpus = "CONTEXT_BUDGET_CORPUS"

// ErrNoCorpus reports that the corpus of real sessions is absent.
var ErrNoCorpus = errors.New("no corpus beside the repository (../shared/data/corpus; or set " + EnvShared + ")")

// CorpusDir returns ../shared/data/corpus (186 real session skeletons),
// or $CONTEXT_BUDGET_SHARED/data/corpus.
// $CONTEXT_BUDGET_CORPUS, when set, names the corpus folder itself.
func CorpusDir() (string, error) {
	if p := os.Getenv(EnvCorpus); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", ErrNoCorpus
		}
		return p, nil
	}
	return sharedData("corpus", ErrNoCorpus)
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

// sharedData finds data/<name> in the shared folder: $CONTEXT_BUDGET_SHARED
// first, else ../shared beside the folder holding go.mod.
func sharedData(name string, absent error) (string, error) {
	if s := os.Getenv(EnvShared); s != "" {
		p := filepath.Join(s, "data", name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		return "", absent
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, "..", "shared", "data", name)
			if _, err := os.Stat(p); err != nil {
				return "", absent
			}
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", absent
		}
		dir = parent
	}
}
