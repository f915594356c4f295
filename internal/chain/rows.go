package chain

import (
	"github.com/muthur/context-budget/internal/fuse"
	"path/filepath"
	"sync"

	"github.com/muthur/context-budget/ledger"
)

// chainRows reads what the ledger holds of a chain, under the folder the
// sessions run in (or the top of its work tree): what its sessions spent
// and its last place. A row read twice (the two folders are one) counts
// once. The rows are files in the work tree, which the agent can write:
// a session the fuse tallied (its folder fuseDir) counts no less than
// that tally, as a running session does (fuse.Sessions).
func chainRows(dir, id, fuseDir string, price fuse.Pricer) (usd float64, last int) {
	seen := map[string]bool{}
	for _, d := range candidates(dir) {
		rd, err := ledger.NewReader(ledger.Dir(d))
		if err != nil {
			continue
		}
		rows, _ := rd.ReadAll()
		for _, r := range rows {
			if r.Chain != id || seen[r.SessionID] {
				continue
			}
			seen[r.SessionID] = true
			cost := r.Total.CostUSD
			if fuseDir != "" {
				cost = max(cost, fuse.ReadStored(fuseDir, r.SessionID, "", price).Sum.USD)
			}
			usd += cost
			last = max(last, r.Place)
		}
	}
	return usd, last
}

// projectsDir is Claude Code's transcripts folder as the environment env
// sets it: <config>/projects.
func projectsDir(env []string) string {
	return filepath.Join(configDir(env), "projects")
}

// workTree is the top of the work tree dir is in; dir itself when git
// cannot say. A folder's top is asked of git once: every step of a
// session looks for files under it.
func workTree(dir string) string {
	if top, ok := tops.Load(dir); ok {
		return top.(string)
	}
	top, err := gitOut(dir, nil, "rev-parse", "--show-toplevel")
	if err != nil || top == "" {
		return dir
	}
	tops.Store(dir, top)
	return top
}

// tops holds the work trees' tops workTree found, by folder.
var tops sync.Map
