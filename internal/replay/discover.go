package replay

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Source is one main transcript to replay and the subagent transcripts
// that belong to its session.
type Source struct {
	Path      string
	Size      int64
	Subagents []string
}

// Discover finds the main transcripts under paths, each a file or a
// folder searched recursively, in path order without duplicates. In a
// folder, a .jsonl file is a main transcript unless it sits in a
// subagents folder (Claude Code 2.1: <session>/subagents/agent-*.jsonl)
// or is named agent-*.jsonl (2.0's layout put subagent logs beside the
// sessions); those belong to a session and are attached to it when they
// sit in its folder. A file named on the command line is replayed
// whatever its name. Folders that cannot be read are skipped; a path that
// does not exist is an error.
func Discover(paths []string) ([]Source, error) {
	seen := map[string]bool{}
	var out []Source
	add := func(path string, size int64) {
		abs, err := filepath.Abs(path)
		if err != nil {
			abs = path
		}
		if seen[abs] {
			return
		}
		seen[abs] = true
		out = append(out, Source{Path: path, Size: size, Subagents: subagents(path)})
	}
	for _, root := range paths {
		fi, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			add(root, fi.Size())
			continue
		}
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if d != nil && d.IsDir() && path != root {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if d.Name() == "subagents" && path != root {
					return fs.SkipDir
				}
				return nil
			}
			name := d.Name()
			if !strings.HasSuffix(name, ".jsonl") || strings.HasPrefix(name, "agent-") || !d.Type().IsRegular() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			add(path, info.Size())
			return nil
		})
	}
	slices.SortStableFunc(out, func(a, b Source) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// subagents lists the transcripts under <session>/subagents/, recursively
// (newer versions add subagents/workflows/).
func subagents(path string) []string {
	dir := filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents")
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			out = append(out, p)
		}
		return nil
	})
	return out
}
