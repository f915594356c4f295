// Package guard is the spend fuse's guard (design §13's threat model):
// while a cap is armed, the tool calls that would lift the fuse by
// ordinary means are denied. It reads the tool's input as plain data:
// the paths a file tool names and, for Bash, the simple commands of the
// line (shell.go), what they run (wrappers.go, commands.go, git.go), our
// own program's verbs and new sessions (ours.go), and code handed to an
// interpreter read as text (code.go); a path counts by where it lands
// (places.go). Obfuscation (a command built at run time, eval of a
// variable, base64, a script written and then run) passes any hook and
// is out of its scope. The fuse keeps the tally, the decision and the
// halts; it asks the guard only while a cap is armed.
package guard

import (
	"cmp"
	"encoding/json"

	"github.com/muthur/context-budget/internal/reading"
)

// Call is one tool call as the guard reads it: the project's root, the
// folder a Bash command starts in, the session's transcript, the fuse's
// own state folder (StateRoot: under the user's Claude Code config
// folder) and its witness's (Witness: under the user's state folder),
// the tool and its input, the environment, and the session's id (the
// hook's; CLAUDE_CODE_SESSION_ID where the environment lacks it).
type Call struct {
	Root, Cwd, Transcript, StateRoot string
	Session                          string
	Witness                          string
	ToolName                         string
	ToolInput                        json.RawMessage
	Getenv                           func(string) string
}

// guard decides one call while a cap is armed.
type guard struct {
	getenv     func(string) string
	root, cwd  string
	places     []place
	transcript string
	stateRoot  string
	witness    string
	memo       map[string]string // resolve's
	code       []code            // what the line's commands run as code (codeOf)
	// prose: the commands read are strings of another tool's input,
	// which may be prose: a program the guard does not know is not
	// judged by the paths it names, starters and terminals are words,
	// and claude alone is a name.
	prose bool
}

// bashCommand is a Bash call's command line, taken by the hook's
// streaming reader: the key exactly as the Bash tool reads it.
func bashCommand(input json.RawMessage) (string, bool) {
	var cmd string
	err := reading.NewPick(reading.Field{Path: "command", To: &cmd, Strict: true, Max: len(input)}).Decode(input)
	return cmd, err == nil
}

// Lifts says how a tool call would lift the fuse while a cap is armed,
// "" when it would not: a lifting verb of either program in any ordinary
// spelling, uninstalling the hooks, starting a session the cap would not
// cover, or writing, moving or removing what the fuse stands on.
func Lifts(c Call) string {
	getenv := c.Getenv
	if c.Session != "" {
		getenv = func(k string) string {
			if v := c.Getenv(k); v != "" || k != "CLAUDE_CODE_SESSION_ID" {
				return v
			}
			return c.Session
		}
	}
	g := &guard{getenv: getenv, root: c.Root, cwd: cmp.Or(c.Cwd, c.Root), transcript: c.Transcript, stateRoot: c.StateRoot,
		witness: c.Witness, memo: map[string]string{}}
	if c.ToolName != "Bash" {
		return g.toolLifts(c.ToolName, c.ToolInput)
	}
	line, ok := bashCommand(c.ToolInput)
	if !ok {
		return ""
	}
	cmds := parse(line, g.cwd, g.getenv)
	for i := 0; i < len(cmds); i++ {
		if why := g.command(cmds[i], &cmds); why != "" {
			return why
		}
	}
	return g.text()
}
