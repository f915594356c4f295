package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/tools/sharedtest"
)

// realLines returns the lines of the real transcripts in
// ../shared/data/transcripts beside the repository that are at most max
// bytes long, or nil when the folder is absent.
func realLines(tb testing.TB, max int) [][]byte {
	tb.Helper()
	dir, err := sharedtest.Dir()
	if err != nil {
		return nil
	}
	var out [][]byte
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".jsonl" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(l) > 0 && len(l) <= max {
				out = append(out, l)
			}
		}
		return nil
	})
	if len(out) == 0 {
		tb.Log("no real transcripts beside the repository: fuzzing from the built-in seeds only")
	}
	return out
}
