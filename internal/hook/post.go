package hook

import (
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/operator"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
)

// post decides a PostToolUse call's answer: nil for silence. g keeps the
// call's deadline.
func post(p reading.Payload, getenv func(string) string, g *guard, full Full) ([]byte, error) {
	if p.Subagent {
		text, err := subagent(p, getenv, g)
		return ContextAnswer(p.HookEventName, text), err
	}
	if !state.PlainName(p.SessionID) || p.TranscriptPath == "" {
		return nil, nil
	}
	s, err := tuning.FromEnv(getenv)
	if err != nil {
		return nil, err
	}
	root := SessionRoot(getenv, p.Cwd)
	if root == "" {
		return nil, nil
	}
	opt := reading.DefaultOptions(p.ToolUseID)
	opt.Wait = min(opt.Wait, time.Until(g.start.Add(recordWait)))
	r, err := reading.Read(p.TranscriptPath, opt)
	if err != nil {
		return nil, err
	}
	dir := state.Dir(root)
	call := &lines.Call{Dir: dir, ID: p.SessionID, Root: root, Transcript: p.TranscriptPath,
		Settings: s, Getenv: getenv, Reading: r.Tokens, RequestedModel: r.RequestedModel, Model: r.Model, Version: r.Version,
		Sources: lines.Sources{Time: r.Time}}
	bounds := climb.Options{LockDeadline: g.recordDeadline(), Gate: g.beginRecord}
	// The common call: the cache holds, and nothing is due. Its quick
	// part holds what a notice says, too.
	if q, ok := lines.LoadQuick(dir, call.ID); ok && q.Holds(call) {
		bounds.Compactions = q.Decision.Compactions
		level, err := climb.AdvanceWith(dir, p.SessionID, r.Tokens, q.Tokens(), bounds)
		if err != nil || level == climb.None {
			return nil, err
		}
		return noticeAnswer(p, s, root, level, r.Tokens, q.Decision, getenv, g), nil
	}
	d := decision(call, full, g.pricingDeadline())
	bounds.Compactions = d.Compactions
	level, err := climb.AdvanceWith(dir, p.SessionID, r.Tokens, d.Lines.Tokens(), bounds)
	if err != nil || level == climb.None {
		return nil, err
	}
	return noticeAnswer(p, s, root, level, r.Tokens, d, getenv, g), nil
}

// decision is the session's lines for call: the line cache's when they
// hold, else the ones full recomputes by deadline (fixed lines too: the
// compaction point's sources are read there). Should the recompute
// fail or come late, the cache's last lines for this transcript stand,
// else the lines decided without pricing, history or those sources.
// Pricing only ever moves a line earlier, so those never fire a notice
// the priced lines would not have.
func decision(call *lines.Call, full Full, deadline time.Time) lines.Decision {
	if e, ok := lines.Load(call.Dir, call.ID); ok && e.Holds(call) {
		return e.Decision
	}
	full.Recompute(call, deadline)
	if e, ok := lines.Load(call.Dir, call.ID); ok && e.Transcript == call.Transcript {
		return e.Decision
	}
	return fixedDecision(call)
}

// fixedDecision is the lines decided for call without pricing, a history
// or the compaction point's sources: the caps, or the environment's
// lines, under the window's cap.
func fixedDecision(call *lines.Call) lines.Decision {
	fixed := *call
	fixed.Settings.Fixed, fixed.Sources = true, lines.Sources{}
	return lines.Decide(fixed.Input(nil))
}

// noticeAnswer is the answer for a level that fired and is recorded: the
// notice for the model, and its one line for the person.
func noticeAnswer(p reading.Payload, s tuning.Settings, root string, level climb.Level, reading int64, d lines.Decision,
	getenv func(string) string, g *guard) []byte {
	facts := notice.Facts{
		Level:       level,
		Reading:     reading,
		Lines:       d.Lines,
		Money:       d.Money(reading),
		WindowWords: notice.WindowWords(d.Window),
		SkillPrefix: SkillPrefix(getenv),
	}
	// The level is on disk: from here the notice must go out. Should the
	// operator not come in time, it goes out as it reads with no operator.
	none := operator.Decide(s.Manual, root, func() string { return "" })
	facts.Manual, facts.Offer = none.Manual, none.Offer
	short := notice.Short(facts)
	g.recordedWith(string(NoticeAnswer(p.HookEventName, notice.Text(facts), short)))
	spoolNotice(root, p.SessionID, level, reading, d, facts.Money, time.Now())
	// Only now, with a notice about to fire, is the operator worth a
	// look-up: a child process, at most once per session (design §7).
	deadline := g.operatorDeadline()
	mr := operator.Decide(s.Manual, root, func() string {
		return operator.OperatorBy(state.Dir(root), p.SessionID, deadline, operator.LookupContext)
	})
	facts.Manual, facts.Offer = mr.Manual, mr.Offer
	if level == climb.Pause && facts.Relays() {
		// For context-budget run: a session that paused to offer /relay
		// waits for its operator; the switch may be where the runner
		// cannot see it. A record that cannot be written costs the
		// runner that fact, never the notice. A pause whose verdict is
		// to go on paused nothing.
		operator.RecordPause(state.Dir(root), p.SessionID, mr.Manual, time.Now())
	}
	return NoticeAnswer(p.HookEventName, notice.Text(facts), short)
}

// countCall counts a PostToolUse call for the loop fuse: the session's
// calls file keeps the last call. Any error is silent.
func countCall(p reading.Payload, getenv func(string) string) {
	s, err := tuning.FuseFromEnv(getenv)
	if err != nil {
		return
	}
	fuse.RecordCall(getenv, SessionRoot(getenv, p.Cwd), p.SessionID, p.AgentID, p.ToolName, json.RawMessage(p.ToolInput), s)
}

// SkillPrefix is how the skills are named where the hook runs: "" when
// they are installed into .claude/skills/ (/relay), the plugin's name and
// a colon when the hook runs from a plugin (/context-budget:relay), read
// from the plugin's manifest.
func SkillPrefix(getenv func(string) string) string {
	root := getenv("CLAUDE_PLUGIN_ROOT")
	if root == "" {
		return ""
	}
	data, err := reading.ReadFile(filepath.Join(root, ".claude-plugin", "plugin.json"), reading.MaxPluginManifest)
	if err != nil {
		return ""
	}
	var m struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(data, &m) != nil || !kebab(m.Name) {
		return ""
	}
	return m.Name + ":"
}

// kebab reports whether s is a plugin name as Claude Code takes one:
// lower-case letters, digits and single inner hyphens, at most 64.
func kebab(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

// TestOnlyNotice decides a PostToolUse call's answer as a hook call
// does, the loop step counted, with getenv and no deadline: for tests
// that compare the hook's decisions with replay's over many sessions in
// one process.
func TestOnlyNotice(p reading.Payload, getenv func(string) string, full Full) ([]byte, error) {
	countCall(p, getenv)
	return post(p, getenv, testOnlyNoDeadline(), full)
}
