package cli

import (
	"path/filepath"

	"github.com/muthur/context-budget/internal/compactions"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/window"
)

// findSources finds the compaction point's sources for call (design
// §4.1), the files they came from with them: the autoCompactWindow
// Claude Code's settings files set for the session's model, and the
// automatic compactions of the user's other sessions of the call's
// version — in their transcripts under Claude Code's projects folder,
// through the project's index of them, and in the project's ledger rows
// — that came before the reading at time. Without a home or
// CLAUDE_CONFIG_DIR in getenv there are no settings files and no other
// sessions. save keeps the index's progress in the state folder.
func findSources(getenv func(string) string, root, transcript, session, version, model, time string, save bool) (src lines.Sources, deps lines.Deps) {
	src.Time = time
	home := getenv("HOME")
	if home == "" && getenv("CLAUDE_CONFIG_DIR") == "" {
		return src, deps
	}
	config := settings.ConfigDir(getenv, home)
	src.CompactWindow, _ = settings.CompactWindow(config, root, model)
	for _, name := range settings.EnvFiles(config, root) {
		deps.FileDep(name)
	}
	var seen []window.Compaction
	files := map[string]string{}
	if root != "" {
		name := filepath.Join(state.Dir(root), state.Compactions)
		ix := compactions.Load(name)
		own, _ := filepath.Abs(transcript)
		var list []string
		for _, t := range compactions.Transcripts(filepath.Join(config, "projects")) {
			if abs, _ := filepath.Abs(t); abs != own {
				list = append(list, t)
			}
		}
		if ix.Update(list, compactions.Budget) && save {
			// An index that cannot be saved is read again next time.
			ix.Save(name)
		}
		seen, files = ix.Seen(version, session)
		seen = append(seen, compactions.Rows(root, version, session)...)
	}
	src.Seen = window.Latest(seen, time)
	used := map[string]bool{}
	for _, c := range src.Seen {
		if f, ok := files[c.Session]; ok && !c.Row && !used[f] {
			used[f] = true
			deps.GrownDep(f)
		}
	}
	return src, deps
}
