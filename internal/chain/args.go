package chain

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/tuning"
)

// Instruction ends every session's system prompt (--append-system-prompt):
// the runner tells a session that is done from one that waits for a
// person by its last line (Waits).
const Instruction = "This session runs unattended, in a chain of sessions that context-budget run supervises: nobody reads your messages as they come. " +
	"End your last message with a line of its own: " + MarkDone + " when the work you were asked for is done, or " + MarkWaiting +
	" when you need a person's answer or decision to go on (say just before it what you need). A session that hands over with the relay skill needs neither."

// The last lines Instruction asks for.
const (
	MarkDone    = "[context-budget: done]"
	MarkWaiting = "[context-budget: waiting]"
)

// claudeArgs are the arguments the chain was given for claude, with the
// two the runner adds to merged out of them: a --settings (a file or JSON
// text) and an --append-system-prompt (or its -file form).
type claudeArgs struct {
	rest     []string
	settings map[string]any
	appended string
}

// The flags claudeArgs merges.
const (
	flagSettings   = "--settings"
	flagAppend     = "--append-system-prompt"
	flagAppendFile = "--append-system-prompt-file"
)

// keyDisableHooks is the settings key that turns every hook but the
// managed ones off.
const keyDisableHooks = "disableAllHooks"

// CheckArgs reports whether claude's arguments can be merged with the
// runner's: a --settings that reads as a JSON object (inline, or a file
// relative to dir), an --append-system-prompt-file that reads.
func CheckArgs(dir string, args []string) error {
	_, err := parseArgs(dir, args)
	return err
}

// parseArgs takes the flags it merges out of args; a file is read
// relative to dir.
func parseArgs(dir string, args []string) (claudeArgs, error) {
	var c claudeArgs
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, inline := strings.Cut(a, "=")
		if name != flagSettings && name != flagAppend && name != flagAppendFile {
			c.rest = append(c.rest, a)
			continue
		}
		if !inline {
			if i+1 >= len(args) {
				return c, fmt.Errorf("%s without a value", name)
			}
			i++
			value = args[i]
		}
		switch name {
		case flagSettings:
			m, err := readSettings(dir, value)
			if err != nil {
				return c, fmt.Errorf("%s %s: %w", flagSettings, value, err)
			}
			c.settings = m
		case flagAppend:
			c.appended = value
		case flagAppendFile:
			data, err := reading.ReadFile(inDir(dir, value), reading.MaxSkill)
			if err != nil {
				return c, fmt.Errorf("%s: %w", flagAppendFile, err)
			}
			c.appended = string(data)
		}
	}
	return c, nil
}

// readSettings reads a --settings value as claude does: JSON text, or the
// name of a file that holds it.
func readSettings(dir, value string) (map[string]any, error) {
	data := []byte(value)
	if !strings.HasPrefix(strings.TrimSpace(value), "{") {
		var err error
		if data, err = reading.ReadFile(inDir(dir, value), reading.MaxSettings); err != nil {
			return nil, err
		}
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		return nil, errors.New("not a JSON object")
	}
	return m, nil
}

func inDir(dir, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(dir, name)
}

// env is the user's --settings env block, as strings.
func (c claudeArgs) env() map[string]string {
	out := map[string]string{}
	block, _ := c.settings["env"].(map[string]any)
	for k, v := range block {
		switch v := v.(type) {
		case string:
			out[k] = v
		case float64, bool:
			out[k] = fmt.Sprint(v)
		}
	}
	return out
}

// with returns claude's arguments for a session: the given ones, then a
// --settings whose env holds pins over the user's own and which keeps
// hooks on, and the instruction appended to the user's text. A settings
// file's disableAllHooks would turn the fuse and the guard off; --settings
// comes before every settings file but the managed one, so the session's
// hooks stay on whatever the work tree commits or the agent writes.
func (c claudeArgs) with(pins map[string]string) []string {
	out := slices.Clone(c.rest)
	m := maps.Clone(c.settings)
	if m == nil {
		m = map[string]any{}
	}
	env := map[string]any{}
	if block, ok := m["env"].(map[string]any); ok {
		maps.Copy(env, block)
	}
	for k, v := range pins {
		env[k] = v
	}
	if len(env) > 0 {
		m["env"] = env
	}
	m[keyDisableHooks] = false
	data, _ := json.Marshal(m)
	out = append(out, flagSettings, string(data))
	text := Instruction
	if strings.TrimSpace(c.appended) != "" {
		text = strings.TrimRight(c.appended, "\n") + "\n\n" + Instruction
	}
	return append(out, flagAppend, text)
}

// pins are the fuse's caps a session runs under, which the runner sets
// in its --settings (over a project's or a local settings file's env,
// under claude -p applied without a trust dialog): the session's cap is
// the chain's budget left (plus base, what a resumed session spent
// before, since the fuse counts a session from its launch), else the
// runner's own MUTHUR_CONTEXT_BUDGET_SPEND; the day cap is the runner's
// MUTHUR_CONTEXT_BUDGET_SPEND_DAY. Any settings file (the user's, the
// project's, the local one), or the user's own --settings, may lower
// either (a valid amount of the same unit below it); none may raise,
// unset or spoil it. The runner's
// CLAUDE_CONFIG_DIR, when set, is pinned too: the transcripts the spend
// is taken from are there.
func (r *runner) pins(c claudeArgs, budget, base float64) map[string]string {
	get := lookup(r.env)
	lower := []map[string]string{c.env()}
	config := configDir(r.env)
	for _, root := range candidates(r.cfg.Dir) {
		for _, name := range settings.EnvFiles(config, root) {
			if env, ok := settings.FileEnv(name); ok {
				lower = append(lower, env)
			}
		}
	}
	pins := map[string]string{}
	spend := get(tuning.EnvSpend)
	if budget > 0 {
		spend = "$" + dollars(budget+base)
	}
	for name, v := range map[string]string{tuning.EnvSpend: spend, tuning.EnvSpendDay: get(tuning.EnvSpendDay)} {
		cap, err := tuning.ParseAmount(v)
		if err != nil || cap.IsZero() {
			continue
		}
		for _, l := range lower {
			if a, err := tuning.ParseAmount(l[name]); err == nil && !a.IsZero() && below(a, cap) {
				cap, v = a, strings.TrimSpace(l[name])
			}
		}
		pins[name] = strings.TrimSpace(v)
	}
	if d := get("CLAUDE_CONFIG_DIR"); d != "" {
		pins["CLAUDE_CONFIG_DIR"] = d
	}
	return pins
}

// below reports whether a is a cap lower than b in b's unit.
func below(a, b tuning.Amount) bool {
	if b.Tokens > 0 {
		return a.Tokens > 0 && a.Tokens < b.Tokens
	}
	return a.Tokens == 0 && a.USD < b.USD
}
