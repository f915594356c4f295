package cli

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/muthur/context-budget/internal/settings"
)

// transcriptDir is where Claude Code keeps the transcripts of the project
// at root: <config>/projects/<folder>, the folder being
// $CLAUDE_CODE_PROJECT_DIR_NAME when set, else root's absolute path with
// every character other than a letter or digit replaced by "-".
func transcriptDir(root string) string {
	home, _ := os.UserHomeDir()
	folder := os.Getenv("CLAUDE_CODE_PROJECT_DIR_NAME")
	if folder == "" {
		abs, err := filepath.Abs(root)
		if err != nil {
			abs = root
		}
		folder = settings.ProjectSlug(abs)
	}
	return filepath.Join(settings.ConfigDir(os.Getenv, home), "projects", folder)
}

// newestTranscript is the most recently written transcript of the
// project at root ("" when it has none) and the folder it looked in.
func newestTranscript(root string) (string, string, error) {
	dir := transcriptDir(root)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", dir, nil
	}
	if err != nil {
		return "", dir, err
	}
	newest, best := "", int64(0)
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".jsonl" || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		// Ties go to the name that sorts last, so the answer is stable.
		if t := fi.ModTime().UnixNano(); newest == "" || t >= best {
			newest, best = filepath.Join(dir, e.Name()), t
		}
	}
	return newest, dir, nil
}

// isTerminalReader reports whether r is a terminal, which lines must not
// wait on for a payload nobody will type.
func isTerminalReader(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
