package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/window"
)

// maxStatusPayload bounds the status line's stdin; Claude Code sends a
// few kilobytes.
const maxStatusPayload = 1 << 20

// neutralStatus is what the status line shows when it cannot tell.
const neutralStatus = "ctx –"

// statusPayload is the part of Claude Code's statusLine input we read.
type statusPayload struct {
	SessionID      string
	TranscriptPath string
	Cwd            string
	ProjectDir     string
	WindowSize     int64
	// Usage is context_window.current_usage's context (input + cache
	// creation + cache read), HasUsage whether the payload had one: the
	// reading when the transcript cannot be read.
	Usage    int64
	HasUsage bool
}

// parseStatusPayload reads the payload so that a field of an unexpected
// type costs that field, not the line: encoding/json skips a value it
// cannot store and goes on, and the window's size and usage are kept raw
// and read on their own.
func parseStatusPayload(data []byte) (statusPayload, bool) {
	var in struct {
		SessionID      string `json:"session_id"`
		TranscriptPath string `json:"transcript_path"`
		Cwd            string `json:"cwd"`
		Workspace      struct {
			ProjectDir string `json:"project_dir"`
			CurrentDir string `json:"current_dir"`
		} `json:"workspace"`
		ContextWindow struct {
			Size  json.RawMessage `json:"context_window_size"`
			Usage json.RawMessage `json:"current_usage"`
		} `json:"context_window"`
	}
	err := json.Unmarshal(data, &in)
	var typeErr *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &typeErr) || !bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
		return statusPayload{}, false
	}
	p := statusPayload{SessionID: in.SessionID, TranscriptPath: in.TranscriptPath, Cwd: in.Cwd, ProjectDir: in.Workspace.ProjectDir}
	if p.Cwd == "" {
		p.Cwd = in.Workspace.CurrentDir
	}
	var n json.Number
	if json.Unmarshal(in.ContextWindow.Size, &n) == nil {
		if v, err := n.Int64(); err == nil && v > 0 {
			p.WindowSize = v
		}
	}
	p.Usage, p.HasUsage = currentUsage(in.ContextWindow.Usage)
	return p, true
}

// maxUsageTokens bounds each count of current_usage: no context holds
// more, and the sum of three cannot overflow.
const maxUsageTokens = 1 << 40

// currentUsage reads context_window.current_usage: the context of the
// last request is its input plus cache creation plus cache read tokens. A
// count that is missing, negative, fractional or absurd makes the whole
// usage unknown rather than a wrong number.
func currentUsage(raw json.RawMessage) (int64, bool) {
	var u map[string]json.RawMessage
	if json.Unmarshal(raw, &u) != nil || u == nil {
		return 0, false
	}
	var sum int64
	seen := false
	for _, k := range []string{"input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"} {
		v, ok := u[k]
		if !ok {
			continue
		}
		var n json.Number
		if json.Unmarshal(v, &n) != nil {
			return 0, false
		}
		i, err := n.Int64()
		if err != nil || i < 0 || i > maxUsageTokens {
			return 0, false
		}
		sum += i
		seen = true
	}
	return sum, seen
}

// runStatusline is Claude Code's statusLine command: one short line, exit
// status 0 whatever happens, as a failing status line blanks the bar.
func runStatusline(args []string, stdin io.Reader, stdout, _ io.Writer) int {
	fs := newFlags("statusline", "context-budget statusline [--color] < statusline-payload.json   (Claude Code runs it)")
	color := fs.Bool("color", false, "colour the line by level")
	if wantsHelp(args) {
		fs.printHelp(stdout)
		return 0
	}
	// Anything else on the command line is ignored: a failing status line
	// blanks the bar.
	fs.Parse(args)
	data, err := io.ReadAll(io.LimitReader(stdin, maxStatusPayload))
	line := neutralStatus
	if err == nil {
		if p, ok := parseStatusPayload(data); ok {
			line = statusLine(p, os.Getenv, *color)
		}
	}
	io.WriteString(stdout, line+"\n")
	return 0
}

// statusRoot is the project root for the status line's state: as for the
// hook, $CLAUDE_PROJECT_DIR first; the payload's project_dir is the same
// folder when the variable is not passed on.
func statusRoot(p statusPayload, getenv func(string) string) string {
	return sessionRoot(getenv, p.ProjectDir, p.Cwd)
}

// statusLine renders the line for one payload.
func statusLine(p statusPayload, getenv func(string) string, color bool) string {
	root := statusRoot(p, getenv)
	session := root != "" && state.PlainName(p.SessionID)
	// The session's window file is read once, here, for the line cache's
	// key and the lines decided without it alike.
	var win int64
	if session {
		if p.WindowSize > 0 {
			win = recordWindow(state.Dir(root), p.SessionID, p.WindowSize)
		} else {
			win = window.ReadFile(window.FileName(state.Dir(root), p.SessionID))
		}
	}
	// Read at once: the status line follows the transcript, it does not
	// wait for a record the way the hook does. Without a readable
	// transcript, Claude Code's own figure for the last request stands in.
	var r reading.Reading
	var err error
	if p.TranscriptPath != "" {
		r, err = reading.Read(p.TranscriptPath, reading.Options{})
	}
	if p.TranscriptPath == "" || err != nil {
		if !p.HasUsage {
			return neutralStatus
		}
		r = reading.Reading{Tokens: p.Usage}
	}
	head := "ctx " + notice.K(r.Tokens)
	s, err := config.FromEnv(getenv)
	if err != nil {
		if ce, ok := err.(*config.Error); ok {
			return head + " · bad " + ce.Var
		}
		return head
	}
	// The lines the hook last decided for this session, from its line
	// cache, so the bar shows the numbers the agent is told. The status
	// line never prices on its own: it runs every few hundred
	// milliseconds, and the hook keeps the cache fresh after every tool
	// call. Without a cache (a session before its first tool call, or no
	// session to key it on) the lines are decided without pricing.
	var d lines.Decision
	ok := false
	if session && !s.Fixed {
		d, ok = lines.Cached(&lines.Call{Dir: state.Dir(root), ID: p.SessionID, Root: root, Transcript: p.TranscriptPath,
			Settings: s, Getenv: getenv, Reading: r.Tokens, RequestedModel: r.RequestedModel, Version: r.Version,
			Window: win, WindowKnown: true})
	}
	if !ok {
		d = lines.Decide(lines.Input{Settings: s, Reading: r.Tokens, RequestedModel: r.RequestedModel, Getenv: getenv,
			Version: r.Version, StatuslineWindow: win})
	}
	ls := d.Lines
	var next string
	level := ls.Tokens().Due(r.Tokens)
	switch level {
	case climb.None:
		next = "warn " + notice.K(ls.Warn.Tokens) + " (" + string(ls.Warn.SetBy) + ")"
	case climb.Warn:
		next = "pause " + notice.K(ls.Pause.Tokens) + " (" + string(ls.Pause.SetBy) + ")"
	default:
		next = "past pause " + notice.K(ls.Pause.Tokens) + " (" + string(ls.Pause.SetBy) + ")"
	}
	if color {
		head = colorize(level, head)
	}
	line := head + " · " + next
	if m := d.Money(r.Tokens); m != nil {
		line += " · relay " + relayWords(m)
	}
	if session {
		line += coldMark(state.Dir(root), p.SessionID, p.TranscriptPath, &d, r, getenv)
	}
	return line
}

// relayWords says what relaying now does over the next 100k tokens:
// "saves $0.12" or "costs $2.76".
func relayWords(m *lines.Money) string {
	if m.SavingUSD >= 0 {
		return "saves " + notice.USD(m.SavingUSD)
	}
	return "costs " + notice.USD(-m.SavingUSD)
}

// colorize wraps s in the ANSI colour of a level: green, yellow, red.
func colorize(l climb.Level, s string) string {
	code := "32"
	switch l {
	case climb.Warn:
		code = "33"
	case climb.Pause:
		code = "31"
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// recordWindow keeps the window size Claude Code reported for a session in
// <dir>/<session>.window, for the window cap (design §4.1). It writes only
// when the value changed, atomically; any failure is silent. It returns
// the value the file holds afterwards: size, or the old value when the
// write failed.
func recordWindow(dir, session string, size int64) int64 {
	name := window.FileName(dir, session)
	old := window.ReadFile(name)
	if old == size {
		return size
	}
	if state.Ensure(dir) != nil {
		return old
	}
	if state.WriteFile(name, []byte(strconv.FormatInt(size, 10)+"\n")) != nil {
		return old
	}
	return size
}
