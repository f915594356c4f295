package cli

import (
	"path/filepath"

	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/ledger"
)

// teamTables totals the committed ledger rows of the projects the
// replayed sessions ran in, and of the project replay runs in, by each
// key of ledger --by: the team's rows, the sessions of teammates on
// other machines among them, for the report's own section. Projects
// that share a ledger count each row once.
func teamTables(rep *replay.Report, here string) {
	roots := []string{}
	seen := map[string]bool{}
	add := func(root string) {
		if root == "" {
			return
		}
		if abs, err := filepath.Abs(root); err == nil {
			root = abs
		}
		if !seen[root] {
			seen[root] = true
			roots = append(roots, root)
		}
	}
	add(here)
	for i := range rep.Sessions {
		add(sessionCwd(rep.Sessions[i].Path))
	}
	var rows []ledger.Row
	ids := map[string]bool{}
	for _, root := range roots {
		rd, err := ledger.NewReader(ledger.Dir(root))
		if err != nil {
			continue
		}
		all, _ := rd.ReadAll()
		for _, r := range all {
			if !ids[r.SessionID] {
				ids[r.SessionID] = true
				rows = append(rows, r)
			}
		}
	}
	if len(rows) == 0 {
		return
	}
	for _, by := range ledger.ByKeys {
		t, _ := ledger.TableBy(rows, by)
		rep.Team = append(rep.Team, t)
	}
}
