package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/operator"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/window"
)

// maxPayload bounds what the hook reads from stdin; a payload past it is
// not one Claude Code sends, and it fails to parse.
const maxPayload = 64 << 20

// runHook is the PostToolUse hook. It never fails loudly: whatever it
// cannot read is silence and exit status 0 (design §2).
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if wantsHelp(args) {
		newFlags("hook", "context-budget hook < hook-payload.json   (Claude Code runs it after each tool call)").printHelp(stdout)
		return 0
	}
	// Keep the heap small: the hook's budget is 16 MiB of peak memory, and
	// a tail scan through a multi-megabyte tool result leaves garbage.
	debug.SetMemoryLimit(8 << 20)
	// One deadline for the whole call, from here: past it the hook is
	// silent (hook_deadline.go).
	g := newHookGuard(stdout)
	defer g.stop()
	// The payload streams through a small window: a multi-megabyte
	// tool_response is skipped, never held.
	p, err := reading.ReadPayload(io.LimitReader(stdin, maxPayload))
	if err != nil {
		g.answer(nil)
		return 0
	}
	switch p.HookEventName {
	case "PreToolUse", "Stop", "SubagentStop":
		// The fuse's deadline starts once it is found armed: the unarmed
		// check, on every tool call, is an environment look-up and one
		// open, under the deadline set above.
		return fuseHook(p, g.begin, stdout, stderr)
	}
	g.begin()
	switch p.HookEventName {
	case "UserPromptSubmit":
		return promptHook(p, stdout, stderr)
	case "SessionStart":
		return startHook(p, stderr)
	}
	// PostToolUse: the call is counted for the loop step first, whatever
	// the reading then takes.
	fuseRecordCall(p, os.Getenv)
	text, err := hookNotice(p, os.Getenv, g)
	if err != nil {
		reportConfig(err, stderr)
		g.answer(nil)
		return 0
	}
	g.answer(hookAnswer(p, text))
	return 0
}

// hookAnswer is the hook's output for a notice: one JSON object (hookJSON)
// and a newline; nothing for no notice.
func hookAnswer(p reading.Payload, text string) []byte {
	if text == "" {
		return nil
	}
	event := p.HookEventName
	if event == "" {
		event = "PostToolUse"
	}
	return append(hookJSON(event, text), '\n')
}

// hookOutput is the shape of the hook's answer; hookJSON writes it
// (the tests check it against json.Marshal of this type).
type hookOutput struct {
	Specific hookSpecific `json:"hookSpecificOutput"`
}

type hookSpecific struct {
	Event   string `json:"hookEventName"`
	Context string `json:"additionalContext"`
}

// hookNotice decides the notice for one call: "" for silence. g keeps
// the call's deadline.
func hookNotice(p reading.Payload, getenv func(string) string, g *hookGuard) (string, error) {
	if p.Subagent || !state.PlainName(p.SessionID) || p.TranscriptPath == "" {
		return "", nil
	}
	s, err := config.FromEnv(getenv)
	if err != nil {
		return "", err
	}
	root := sessionRoot(getenv, p.Cwd)
	if root == "" {
		return "", nil
	}
	opt := reading.DefaultOptions(p.ToolUseID)
	opt.Wait = min(opt.Wait, time.Until(g.start.Add(recordWait)))
	r, err := reading.Read(p.TranscriptPath, opt)
	if err != nil {
		return "", err
	}
	dir := state.Dir(root)
	call := &lines.Call{Dir: dir, ID: p.SessionID, Root: root, Transcript: p.TranscriptPath,
		Settings: s, Getenv: getenv, Reading: r.Tokens, RequestedModel: r.RequestedModel, Version: r.Version}
	bounds := climb.Options{LockDeadline: g.recordDeadline(), Gate: g.beginRecord}
	// The common call, a line-cache hit with nothing to announce, is
	// answered from the cache's header: the lines in tokens, no JSON.
	// Only a call that announces needs the whole decision, for its text.
	if !s.Fixed {
		var buf lines.HeaderBuf
		if hit, ok := lines.Hit(call, &buf); ok {
			bounds.Compactions = hit.Compactions()
			level, err := climb.AdvanceWith(dir, p.SessionID, r.Tokens, hit.Lines(), bounds)
			if err != nil || level == climb.None {
				return "", err
			}
			// The notice's facts from the header that decided the level.
			d, ok := hit.Notice()
			if !ok {
				d = decide(call)
			}
			return noticeText(p, s, root, level, r.Tokens, d, getenv, g), nil
		}
	}
	d := decideBy(call, g.pricingDeadline())
	bounds.Compactions = d.Compactions
	level, err := climb.AdvanceWith(dir, p.SessionID, r.Tokens, d.Lines.Tokens(), bounds)
	if err != nil || level == climb.None {
		return "", err
	}
	return noticeText(p, s, root, level, r.Tokens, d, getenv, g), nil
}

// noticeText is the notice for a level that fired and is recorded.
func noticeText(p reading.Payload, s config.Settings, root string, level climb.Level, reading int64, d lines.Decision,
	getenv func(string) string, g *hookGuard) string {
	facts := notice.Facts{
		Level:       level,
		Reading:     reading,
		Lines:       d.Lines,
		Money:       d.Money(reading),
		WindowWords: notice.WindowWords(d.Window),
		SkillPrefix: skillPrefix(getenv),
	}
	// The level is on disk: from here the notice must go out. Should the
	// operator not come in time, it goes out as it reads with no operator.
	none := operator.Decide(s.Manual, root, func() string { return "" })
	facts.Manual, facts.Offer = none.Manual, none.Offer
	g.recordedWith(string(hookAnswer(p, notice.Text(facts))))
	// Only now, with a notice about to fire, is the operator worth a
	// look-up: a child process, at most once per session (design §7).
	deadline := g.operatorDeadline()
	mr := operator.Decide(s.Manual, root, func() string {
		return operator.OperatorBy(state.Dir(root), p.SessionID, deadline, operator.LookupContext)
	})
	facts.Manual, facts.Offer = mr.Manual, mr.Offer
	return notice.Text(facts)
}

// decideBy is decide, bounded: priced lines not computed by deadline (a
// first pricing pass over a long transcript on a slow disk) give way to
// the fixed lines for this call. Pricing only ever moves a line earlier,
// so the caps never fire a notice the priced lines would not have.
func decideBy(call *lines.Call, deadline time.Time) lines.Decision {
	if call.Settings.Fixed {
		return decide(call)
	}
	fixed := *call
	fixed.Settings.Fixed = true
	done := make(chan lines.Decision, 1)
	go func() { done <- decide(call) }()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case d := <-done:
		return d
	case <-timer.C:
		return decide(&fixed)
	}
}

// decide applies the policy for one call. With the lines fixed it does no
// pricing work at all and keeps no line cache; otherwise the session's
// line cache answers, recomputing when it must. A cache that cannot be
// saved still gives its lines.
func decide(call *lines.Call) lines.Decision {
	if call.Settings.Fixed {
		return lines.Decide(lines.Input{Settings: call.Settings, Reading: call.Reading,
			RequestedModel: call.RequestedModel, Getenv: call.Getenv, Version: call.Version,
			StatuslineWindow: window.ReadFile(window.FileName(call.Dir, call.ID))})
	}
	d, _, _ := lines.DecideCached(call)
	return d
}

// reportConfig prints an invalid variable's one line, the hook's one
// way to speak on any event (design §12); any other error is silence.
func reportConfig(err error, stderr io.Writer) {
	if ce, ok := err.(*config.Error); ok {
		fmt.Fprintf(stderr, "context-budget: %v\n", ce)
	}
}
