package hook

import (
	"flag"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/cold"
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
)

// maxStatusPayload bounds the status line's stdin; Claude Code sends a
// few kilobytes.
const maxStatusPayload = 1 << 20

// neutralStatus is what the status line shows when it cannot tell.
const neutralStatus = "ctx –"

// Statusline is Claude Code's statusLine command: one short line on
// stdout, exit status 0 whatever happens, as a failing status line
// blanks the bar. Its one flag, --color, colours the line by level.
func Statusline(args []string, stdin io.Reader, stdout io.Writer) int {
	fs := flag.NewFlagSet("statusline", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	color := fs.Bool("color", false, "")
	// Anything else on the command line is ignored.
	fs.Parse(args)
	data, err := io.ReadAll(io.LimitReader(stdin, maxStatusPayload))
	line := neutralStatus
	if err == nil {
		if p, ok := ParseStatusPayload(data); ok {
			line = StatusLine(p, os.Getenv, *color, time.Now())
		}
	}
	io.WriteString(stdout, line+"\n")
	return 0
}

// StatusPayload is the part of Claude Code's statusLine input we read.
type StatusPayload struct {
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

// maxUsageTokens bounds each count of current_usage: no context holds
// more, and the sum of three cannot overflow.
const maxUsageTokens = 1 << 40

// ParseStatusPayload reads the payload by path, so that a field of an
// unexpected type costs that field, not the line. ok is false when the
// payload is not a JSON object.
func ParseStatusPayload(data []byte) (StatusPayload, bool) {
	var p StatusPayload
	var currentDir string
	var size int64
	var counts [3]int64
	var got [3]reading.Got
	var usage reading.Got
	const u = "context_window.current_usage."
	fields := []reading.Field{
		{Path: "session_id", To: &p.SessionID},
		{Path: "transcript_path", To: &p.TranscriptPath},
		{Path: "cwd", To: &p.Cwd},
		{Path: "workspace.project_dir", To: &p.ProjectDir},
		{Path: "workspace.current_dir", To: &currentDir},
		{Path: "context_window.context_window_size", To: &size},
		{Path: "context_window.current_usage", Got: &usage},
		{Path: u + "input_tokens", To: &counts[0], Got: &got[0]},
		{Path: u + "cache_creation_input_tokens", To: &counts[1], Got: &got[1]},
		{Path: u + "cache_read_input_tokens", To: &counts[2], Got: &got[2]},
	}
	for i := range fields {
		fields[i].Max = maxStatusPayload
	}
	if reading.NewPick(fields...).Decode(data) != nil {
		return StatusPayload{}, false
	}
	if p.Cwd == "" {
		p.Cwd = currentDir
	}
	if size > 0 {
		p.WindowSize = size
	}
	if usage == reading.Found {
		p.Usage, p.HasUsage = currentUsage(counts, got)
	}
	return p, true
}

// currentUsage sums context_window.current_usage's counts: the context of
// the last request is its input plus cache creation plus cache read
// tokens. A count that is present but not a whole number from 0 to
// maxUsageTokens makes the whole usage unknown rather than a wrong number.
func currentUsage(counts [3]int64, got [3]reading.Got) (int64, bool) {
	var sum int64
	seen := false
	for i, n := range counts {
		switch {
		case got[i] == reading.Absent:
			continue
		case got[i] != reading.Found || n < 0 || n > maxUsageTokens:
			return 0, false
		}
		sum += n
		seen = true
	}
	return sum, seen
}

// StatusLine renders the line for one payload at now.
func StatusLine(p StatusPayload, getenv func(string) string, color bool, now time.Time) string {
	root := SessionRoot(getenv, p.ProjectDir, p.Cwd)
	session := root != "" && state.PlainName(p.SessionID)
	if session && p.WindowSize > 0 {
		RecordWindow(state.Dir(root), p.SessionID, p.WindowSize)
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
	s, err := tuning.FromEnv(getenv)
	if err != nil {
		if ce, ok := err.(*tuning.Error); ok {
			return head + " · bad " + ce.Var
		}
		return head
	}
	// The lines the hook last decided for this session, from its line
	// cache, so the bar shows the numbers the agent is told: the part a
	// quiet hook call reads, or the whole entry for the cold mark of an
	// idle session. The status line never prices on its own: it runs
	// every few hundred milliseconds, and the hook keeps the cache fresh
	// after every tool call. Without a cache for the session as it
	// stands, the lines are decided without pricing.
	idle := session && cold.MayBeCold(r, now) && coldOn(getenv)
	var e lines.Entry
	ok := false
	call := &lines.Call{Settings: s, Getenv: getenv, Reading: r.Tokens, RequestedModel: r.RequestedModel, Version: r.Version}
	if session {
		call.Dir, call.ID, call.Root, call.Transcript = state.Dir(root), p.SessionID, root, p.TranscriptPath
		if idle {
			e, ok = lines.Load(call.Dir, call.ID)
			ok = ok && e.For(call)
		} else if q, qok := lines.LoadQuick(call.Dir, call.ID); qok && q.For(call) {
			e, ok = lines.Entry{Made: q.Made, Decision: q.Decision}, true
		}
	}
	if !ok {
		e = lines.Entry{Decision: lines.Decide(call.Input(nil))}
	}
	d := &e.Decision
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
		// The verdict a notice would give now (design §4.2).
		line += " · " + notice.VerdictShort(m.Verdict)
	}
	if idle {
		line += coldMark(p.TranscriptPath, &e, r, now)
	}
	if session {
		line += fuseMark(getenv, root, p.SessionID, now)
	}
	return line
}

// coldOn reports whether the cold check is on, as the status line's
// cold mark needs.
func coldOn(getenv func(string) string) bool {
	cs, err := tuning.ColdFromEnv(getenv)
	return err == nil && cs.Mode != tuning.ColdOff
}

// coldMark is the status line's note on an idle session (cold.MayBeCold,
// the check on) whose cache went cold: " · cold 14m · re-write $1.20 …",
// or "".
func coldMark(path string, e *lines.Entry, r reading.Reading, now time.Time) string {
	if cold.CompactedSince(path) {
		return ""
	}
	f, isCold, priced := cold.At(&e.Decision, &forecast.History{First: e.First, TTL1h: e.TTL1h}, r, now)
	if !isCold {
		return ""
	}
	return " · " + cold.Status(f, priced)
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

// RecordWindow keeps the window size Claude Code reported for a session
// in <dir>/<session>.window, for the window cap (design §4.1). It writes
// only when the value changed; any failure is silent. It returns the
// value the file holds afterwards.
func RecordWindow(dir, session string, size int64) int64 {
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
