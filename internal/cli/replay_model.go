package cli

import (
	"bytes"
	"math"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
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
