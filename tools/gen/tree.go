package gen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Tree is a folder laid out as Claude Code's projects folder: one folder
// per project, named as Claude Code names it from the project's path, and
// in it one transcript per session, written by Write.
type Tree struct {
	// Bytes, Responses and Compactions add up the sessions' Results;
	// Sessions counts them.
	Bytes                            int64
	Sessions, Responses, Compactions int
}

// treeFormat changes whenever what Write writes does, so that a tree
// written before is written again.
const treeFormat = 2

// WriteTree writes at least size bytes of sessions under dir, each
// between 512 KB and 512 KB + maxSession, over projects projects, and
// keeps them: a tree already written with the same figures (a .done file
// records them) is not written again. Everything is deterministic.
func WriteTree(dir string, size, maxSession int64, projects int) (Tree, error) {
	done := filepath.Join(dir, ".done")
	var t Tree
	if data, err := os.ReadFile(done); err == nil {
		var s, m int64
		var p, f int
		if _, err := fmt.Sscan(string(data), &f, &s, &m, &p, &t.Bytes, &t.Sessions, &t.Responses, &t.Compactions); err == nil &&
			f == treeFormat && s == size && m == maxSession && p == projects {
			return t, nil
		}
	}
	t = Tree{}
	if err := os.RemoveAll(dir); err != nil {
		return t, err
	}
	rng := rand.New(rand.NewPCG(42, 42))
	for i := 0; t.Bytes < size; i++ {
		cwd := fmt.Sprintf("/home/user/project-%d", i%max(projects, 1))
		sub := filepath.Join(dir, fmt.Sprintf("-home-user-project-%d", i%max(projects, 1)))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return t, err
		}
		id := fmt.Sprintf("%08d-0000-4000-8000-000000000000", i)
		f, err := os.Create(filepath.Join(sub, id+".jsonl"))
		if err != nil {
			return t, err
		}
		res, err := Write(f, Options{Size: 512<<10 + rng.Int64N(maxSession), Seed: uint64(i), SessionID: id, Cwd: cwd})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return t, err
		}
		t.Bytes += res.Bytes
		t.Sessions++
		t.Responses += res.Responses
		t.Compactions += res.Compactions
	}
	err := os.WriteFile(done, fmt.Appendf(nil, "%d %d %d %d %d %d %d %d", treeFormat, size, maxSession, projects,
		t.Bytes, t.Sessions, t.Responses, t.Compactions), 0o644)
	return t, err
}
