package cli

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"sync"

	"github.com/muthur/context-budget/internal/compactions"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
)

// replayOptions builds the lines and the prices a replay uses: the hook's
// policy with these settings and this price table (nil: the embedded
// one), kept by the line cache's rule (replay.PolicyModel). No project
// root: replay touches nothing of the session's project; the successor's
// reorientation comes from the session's own orientation, read from its
// transcript, as the hook's would once it acted.
func replayOptions(s tuning.Settings, table *prices.Table, getenv func(string) string) replay.Options {
	if table == nil {
		table, _ = prices.Embedded()
	}
	return replay.Options{
		NewModel: func(path string) replay.Model { return replay.NewPolicyModel(s, table, "", path, getenv) },
		Prices:   replay.TablePrices{Table: table},
	}
}

// replayOptionsWithSettings is replayOptions where each session's settings
// come from the environment its hook saw: getenv under the env blocks of
// the Claude Code settings files of the user (in configDir) and of the
// session's project (its cwd), in Claude Code's precedence. A session
// whose settings do not parse gets no notice, as its hook stayed silent.
func replayOptionsWithSettings(table *prices.Table, getenv func(string) string, configDir string) replay.Options {
	opt := replayOptions(tuning.Settings{}, table, getenv)
	if table == nil {
		table, _ = prices.Embedded()
	}
	opt.NewModel = func(path string) replay.Model {
		env, _ := settings.Env(getenv, configDir, sessionCwd(path))
		s, err := tuning.FromEnv(env)
		if err != nil {
			never := lines.Line{Tokens: math.MaxInt64, SetBy: lines.Env}
			return replay.FixedModel(lines.Lines{Warn: never, Pause: never})
		}
		return replay.NewPolicyModel(s, table, "", path, env)
	}
	return opt
}

// withSources gives each session's decision the compaction point's
// sources the hook read, as they stood at each of its responses (the
// decision takes what came before): the automatic compactions of the
// replayed sessions (for the default folder, the user's transcripts the
// hook indexed) and of the ledger rows of each session's project, and the
// autoCompactWindow the settings files in configDir and the project's
// set ("": no settings).
func withSources(opt replay.Options, sources []replay.Source, configDir string) replay.Options {
	ix := &compactions.Index{Files: map[string]*compactions.File{}}
	var paths []string
	for _, s := range sources {
		paths = append(paths, s.Path)
	}
	ix.Update(paths, 0)
	all, _ := ix.Seen("", "")
	var mu sync.Mutex
	rows := map[string][]window.Compaction{}
	rowsOf := func(root string) []window.Compaction {
		mu.Lock()
		defer mu.Unlock()
		if r, ok := rows[root]; ok {
			return r
		}
		rows[root] = compactions.Rows(root, "", "")
		return rows[root]
	}
	newModel := opt.NewModel
	opt.NewModel = func(path string) replay.Model {
		m := newModel(path)
		pm, ok := m.(*replay.PolicyModel)
		if !ok {
			return m
		}
		id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		root := sessionCwd(path)
		for _, c := range append(all[:len(all):len(all)], rowsOf(root)...) {
			if c.Session != id {
				pm.Seen = append(pm.Seen, c)
			}
		}
		if configDir != "" {
			pm.CompactWindow = func(model string) int64 {
				n, _ := settings.CompactWindow(configDir, root, model)
				return n
			}
		}
		return pm
	}
	return opt
}

// sessionCwd is the cwd of a transcript's first record that has one: the
// project the session ran in. It reads at most the first megabyte.
func sessionCwd(path string) string {
	f, _, err := reading.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	rd := reading.NewReader(f)
	read := 0
	for read < 1<<20 {
		line, err := rd.Next()
		if err != nil {
			return ""
		}
		read += len(line)
		if !bytes.Contains(line, []byte(`"cwd"`)) {
			continue
		}
		cwd := ""
		transcript.Decode(line, func(r *transcript.Record) {
			if cwd == "" {
				cwd = r.Cwd
			}
		})
		if cwd != "" {
			return cwd
		}
	}
	return ""
}
