package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/linecache"
	"github.com/muthur/context-budget/internal/manualrelay"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/policy"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/window"
)

// maxPayload bounds what the hook reads from stdin; a payload past it is
// not one Claude Code sends, and it fails to parse.
const maxPayload = 64 << 20

// runHook is the PostToolUse hook. It never fails loudly: whatever it
// cannot read is silence and exit status 0 (design §2).
func runHook(_ []string, stdin io.Reader, stdout, stderr io.Writer) int {
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
	g.begin()
	text, err := hookNotice(p, os.Getenv, g)
	if err != nil {
		if ce, ok := err.(*config.Error); ok {
			fmt.Fprintf(stderr, "context-budget: %v\n", ce)
		}
		g.answer(nil)
		return 0
	}
	g.answer(hookJSON(p, text))
	return 0
}

// hookJSON is the hook's output for a notice: one JSON object and a
// newline; nothing for no notice.
func hookJSON(p reading.Payload, text string) []byte {
	if text == "" {
		return nil
	}
	event := p.HookEventName
	if event == "" {
		event = "PostToolUse"
	}
	out, _ := json.Marshal(hookOutput{Specific: hookSpecific{Event: event, Context: text}})
	return append(out, '\n')
}

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
	root := getenv("CLAUDE_PROJECT_DIR")
	if root == "" {
		root = p.Cwd
	}
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
	d := decideBy(&linecache.Session{Dir: dir, ID: p.SessionID, Root: root, Transcript: p.TranscriptPath,
		Settings: s, Getenv: getenv, Reading: r.Tokens, RequestedModel: r.RequestedModel}, g.pricingDeadline())
	level, err := state.AdvanceWith(dir, p.SessionID, r.Tokens, d.Lines.Tokens(),
		state.Options{LockDeadline: g.recordDeadline(), Gate: g.beginRecord})
	if err != nil || level == state.None {
		return "", err
	}
	facts := notice.Facts{
		Level:       level,
		Reading:     r.Tokens,
		Lines:       d.Lines,
		Money:       d.Money(r.Tokens),
		WindowWords: d.Window.Words(),
	}
	// The level is on disk: from here the notice must go out. Should the
	// operator not come in time, it goes out as it reads with no operator.
	none := manualrelay.Decide(s.Manual, root, func() string { return "" })
	facts.Manual, facts.Offer = none.Manual, none.Offer
	g.recordedWith(string(hookJSON(p, notice.Text(facts))))
	// Only now, with a notice about to fire, is the operator worth a
	// look-up: a child process, at most once per session (design §7).
	deadline := g.operatorDeadline()
	mr := manualrelay.Decide(s.Manual, root, func() string {
		return manualrelay.OperatorBy(state.Dir(root), p.SessionID, deadline, manualrelay.LookupContext)
	})
	facts.Manual, facts.Offer = mr.Manual, mr.Offer
	return notice.Text(facts), nil
}

// decideBy is decide, bounded: priced lines not computed by deadline (a
// first pricing pass over a long transcript on a slow disk) give way to
// the fixed lines for this call. Pricing only ever moves a line earlier,
// so the caps never fire a notice the priced lines would not have.
func decideBy(ls *linecache.Session, deadline time.Time) policy.Decision {
	if ls.Settings.Fixed {
		return decide(ls)
	}
	fixed := *ls
	fixed.Settings.Fixed = true
	done := make(chan policy.Decision, 1)
	go func() { done <- decide(ls) }()
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
func decide(ls *linecache.Session) policy.Decision {
	if ls.Settings.Fixed {
		return policy.Decide(policy.Input{Settings: ls.Settings, Reading: ls.Reading,
			RequestedModel: ls.RequestedModel, Getenv: ls.Getenv,
			StatuslineWindow: window.ReadFile(window.FileName(ls.Dir, ls.ID))})
	}
	d, _, _ := linecache.Decide(ls)
	return d
}
