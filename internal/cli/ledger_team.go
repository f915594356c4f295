package cli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/spool"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/telemetry"
	"github.com/muthur/context-budget/internal/vcs"
	"github.com/muthur/context-budget/ledger"
)

// teamFields adds to a row what the team's view of the ledger needs and
// only this machine knows (design §17): the notices the hook left in the
// session's spool, the author (git's user.email), and the session's
// folder relative to the top of its work tree instead of an absolute
// path that names someone's home. It returns what git said of the
// project.
func teamFields(row *ledger.Row, root string) vcs.Info {
	info := vcs.Read(root)
	row.Author = info.Author
	row.Cwd = relCwd(row.Cwd, info.Top, root)
	row.Notices = spool.Notices(spool.Read(state.Dir(root), row.SessionID))
	return info
}

// relCwd is cwd, an absolute folder, relative to the first of tops it
// lies in ("." for that folder itself), with links resolved when that
// helps; "" when it lies in none. A relative cwd is kept.
func relCwd(cwd string, tops ...string) string {
	if cwd == "" || !filepath.IsAbs(cwd) {
		return filepath.ToSlash(cwd)
	}
	real, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		real = cwd
	}
	for _, top := range tops {
		if top == "" {
			continue
		}
		realTop, err := filepath.EvalSymlinks(top)
		if err != nil {
			realTop = top
		}
		for _, pair := range [][2]string{{top, cwd}, {realTop, real}} {
			if rel, err := filepath.Rel(pair[0], pair[1]); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return filepath.ToSlash(rel)
			}
		}
	}
	return ""
}

// rowWords is a row's words (a warning) with the price files named as
// a person finds them, not by an absolute path that names someone's
// home: the project's relative to the project, the user's under
// $XDG_CONFIG_HOME or ~.
func rowWords(s, root string, getenv func(string) string) string {
	under := func(dir, name, f string) string {
		if rel, err := filepath.Rel(dir, f); err == nil && dir != "" && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(filepath.Join(name, rel))
		}
		return filepath.Base(f)
	}
	if f := prices.ProjectFile(root); f != "" {
		s = strings.ReplaceAll(s, f, under(root, "", f))
	}
	if f := prices.UserFile(getenv); f != "" {
		if x := getenv("XDG_CONFIG_HOME"); x != "" {
			s = strings.ReplaceAll(s, f, under(x, "$XDG_CONFIG_HOME", f))
		} else {
			s = strings.ReplaceAll(s, f, under(getenv("HOME"), "~", f))
		}
	}
	return s
}

// exportStop sends what the session and the project's others have
// waiting to the team's collector, when the user's (or the managed)
// settings turn Claude Code's telemetry on (design §17): the Stop hook's
// environment is not read for it, as a project's settings reach it.
func exportStop(root, session, transcript string) {
	c := telemetry.ForHooks(os.Getenv, root)
	telemetry.Start(c, telemetry.Job{Root: root, Session: session, Transcript: transcript}, os.Environ())
}
