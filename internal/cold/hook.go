package cold

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
)

// Call is one UserPromptSubmit or SessionStart hook call.
type Call struct {
	Payload reading.Payload
	// Root is the project root.
	Root   string
	Getenv func(string) string
	Now    time.Time
	// LookWork asks git about the work; LookWork when nil (tests put a
	// fake here).
	LookWork func(root string) Work
}

// Outcome is what the hook answers to a prompt: a stop with the reason
// the user reads, figures for the model's context, or nothing.
type Outcome struct {
	Block   bool
	Reason  string
	Context string
}

// OnPrompt decides one UserPromptSubmit call. The error is only a bad
// variable's, which the hook reports on stderr; the prompt then passes.
func OnPrompt(c Call) (Outcome, error) {
	p := c.Payload
	cs, err := config.ColdFromEnv(c.Getenv)
	if err != nil || cs.Mode == config.ColdOff || Passes(p.Prompt) {
		return Outcome{}, err
	}
	dir := state.Dir(c.Root)
	r, err := reading.Read(p.TranscriptPath, reading.Options{})
	if err != nil {
		// A forked session's transcript may not hold its history yet:
		// what Claude Code said at its start stands in for it.
		var ok bool
		if r, ok = fromResume(dir, p.SessionID); !ok {
			return Outcome{}, nil
		}
	}
	last, ok := LastResponse(r.Time)
	if !ok || c.Now.Sub(last) < TTL5m {
		return Outcome{}, nil
	}
	name := SpellFile(dir, p.SessionID)
	id := SpellID(r.MessageID, r.Time)
	rec := LoadSpell(name)
	if rec.ID == id && rec.Passed {
		return Outcome{}, nil
	}
	s, err := config.FromEnv(c.Getenv)
	if err != nil {
		return Outcome{}, err
	}
	f, isCold, priced := Look(&Session{Dir: dir, ID: p.SessionID, Root: c.Root, Transcript: p.TranscriptPath,
		Settings: s, Getenv: c.Getenv, Reading: r}, c.Now)
	if !isCold || !priced || !f.Pays(cs.SavingUSD) {
		return Outcome{}, nil
	}
	next, v, changed := Step(rec, id, HashPrompt(p.Prompt), cs.Mode == config.ColdWarn)
	// Record before answering: a stop that cannot be recorded would stop
	// the same prompt for ever.
	if changed && SaveSpell(dir, name, next) != nil {
		return Outcome{}, nil
	}
	switch v {
	case Stop:
		look := c.LookWork
		if look == nil {
			look = LookWork
		}
		return Outcome{Block: true, Reason: Reason(f, look(c.Root))}, nil
	case Tell:
		return Outcome{Context: Context(f)}, nil
	}
	return Outcome{}, nil
}

// resume is what a resumed or forked SessionStart said about the cache,
// kept in <dir>/<session_id>.resume for the session's first prompt.
type resume struct {
	// At is when the session started; LastResponse when its last
	// response landed, by Claude Code's count.
	At           string `json:"at"`
	LastResponse string `json:"last_response"`
	// Context is Claude Code's context_tokens; LikelyExpired its
	// prompt_cache_likely_expired.
	Context       int64 `json:"context_tokens"`
	LikelyExpired bool  `json:"likely_expired"`
}

func resumeFile(dir, id string) string {
	return filepath.Join(dir, id+".resume")
}

// OnStart handles one SessionStart call: for a resumed or forked session
// that says when its last response landed (Claude Code 2.1.332 sends
// seconds_since_last_response, context_tokens and
// prompt_cache_likely_expired), it keeps that for the first prompt. It
// answers nothing: the decision belongs to the prompt, which may come
// long after the start.
func OnStart(c Call) error {
	p := c.Payload
	if p.Source != "resume" && p.Source != "fork" {
		return nil
	}
	if cs, err := config.ColdFromEnv(c.Getenv); err != nil || cs.Mode == config.ColdOff {
		return err
	}
	if p.SecondsSinceLastResponse <= 0 && p.ContextTokens <= 0 {
		return nil
	}
	secs := min(max(p.SecondsSinceLastResponse, 0), 1e9)
	rec := resume{
		At:            c.Now.UTC().Format(time.RFC3339Nano),
		LastResponse:  c.Now.Add(-time.Duration(secs * float64(time.Second))).UTC().Format(time.RFC3339Nano),
		Context:       p.ContextTokens,
		LikelyExpired: p.CacheLikelyExpired,
	}
	dir := state.Dir(c.Root)
	if err := state.Ensure(dir); err != nil {
		return nil
	}
	data, _ := json.Marshal(rec)
	state.WriteFile(resumeFile(dir, p.SessionID), append(data, '\n'))
	return nil
}

// fromResume is the reading a SessionStart record stands in for.
func fromResume(dir, id string) (reading.Reading, bool) {
	data, err := os.ReadFile(resumeFile(dir, id))
	var rec resume
	if err != nil || json.Unmarshal(data, &rec) != nil || rec.Context <= 0 {
		return reading.Reading{}, false
	}
	return reading.Reading{Tokens: rec.Context, MessageID: "resume", Time: rec.LastResponse}, true
}
