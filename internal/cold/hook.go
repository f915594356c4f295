package cold

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
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
	cs, err := tuning.ColdFromEnv(c.Getenv)
	if err != nil || cs.Mode == tuning.ColdOff || Passes(p.Prompt) {
		return Outcome{}, err
	}
	dir := state.Dir(c.Root)
	transcript := p.TranscriptPath
	r, err := reading.Read(transcript, reading.Options{})
	if err != nil {
		// A forked session's transcript is not written until its first
		// response (measured with 2.1.332): the session it was forked
		// from, found at its start, stands in for it, or else what Claude
		// Code said then.
		rec, ok := loadResume(dir, p.SessionID)
		if !ok {
			return Outcome{}, nil
		}
		if r, err = reading.Read(rec.Parent, reading.Options{}); rec.Parent != "" && err == nil {
			transcript = rec.Parent
		} else if r, ok = rec.reading(); !ok {
			return Outcome{}, nil
		}
	}
	if !MayBeCold(r, c.Now) {
		return Outcome{}, nil
	}
	name := SpellFile(dir, p.SessionID)
	id := SpellID(r.MessageID, r.Time)
	rec := LoadSpell(name)
	if rec.ID == id && rec.Passed {
		return Outcome{}, nil
	}
	s, err := tuning.FromEnv(c.Getenv)
	if err != nil {
		return Outcome{}, err
	}
	f, isCold, priced := c.look(dir, transcript, s, r)
	if !isCold || !priced || !f.Pays(cs.SavingUSD) {
		return Outcome{}, nil
	}
	next, v, changed := Step(rec, id, HashPrompt(p.Prompt), cs.Mode == tuning.ColdWarn)
	// Record before answering: a stop that cannot be recorded would stop
	// the same prompt for ever.
	if changed && SaveSpell(name, next) != nil {
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
	// Parent is the transcript of the session a fork was made from, when
	// the fork's own transcript held no response at its start.
	Parent string `json:"parent,omitempty"`
}

func resumeFile(dir, id string) string {
	return filepath.Join(dir, id+state.ResumeSuffix)
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
	if cs, err := tuning.ColdFromEnv(c.Getenv); err != nil || cs.Mode == tuning.ColdOff {
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
	if _, err := reading.Read(p.TranscriptPath, reading.Options{}); err != nil && p.TranscriptPath != "" {
		last, _ := LastResponse(rec.LastResponse)
		rec.Parent = FindParent(filepath.Dir(p.TranscriptPath), p.TranscriptPath, p.ContextTokens, last)
	}
	state.WriteJSON(resumeFile(state.Dir(c.Root), p.SessionID), rec)
	return nil
}

// loadResume reads a session's SessionStart record, by the one reader
// and within reading.MaxSideFile, as every side file.
func loadResume(dir, id string) (resume, bool) {
	return state.FromJSON[resume](reading.ReadFile(resumeFile(dir, id), reading.MaxSideFile))
}

// reading is the reading the record stands in for, without a model: it
// says the cache is cold, not what the re-write costs.
func (rec resume) reading() (reading.Reading, bool) {
	if rec.Context <= 0 {
		return reading.Reading{}, false
	}
	return reading.Reading{Tokens: rec.Context, MessageID: "resume", Time: rec.LastResponse}, true
}

// Limits of the search for a fork's parent: the newest transcripts of the
// project's folder, and how far apart the parent's last response and
// Claude Code's count of it may be.
const (
	maxParentSearch = 64
	parentSlack     = 5 * time.Second
)

// FindParent looks in dir for the transcript a fork was made from: Claude
// Code gives the fork's SessionStart the context of the parent's last
// response (its input and output tokens) and the seconds since it, but
// not its id, so the parent is the newest transcript whose last response
// carried that context and landed then. "" when none does.
func FindParent(dir, self string, context int64, last time.Time) string {
	if context <= 0 || last.IsZero() {
		return ""
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	type cand struct {
		path string
		mod  time.Time
	}
	var cs []cand
	for _, e := range ents {
		name := filepath.Join(dir, e.Name())
		if e.IsDir() || filepath.Ext(name) != ".jsonl" || name == self {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
			cs = append(cs, cand{name, fi.ModTime()})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int { return b.mod.Compare(a.mod) })
	for _, c := range cs[:min(len(cs), maxParentSearch)] {
		r, err := reading.Read(c.path, reading.Options{})
		if err != nil || (r.Tokens != context && r.Tokens+r.Usage.OutputTokens != context) {
			continue
		}
		if at, ok := LastResponse(r.Time); ok && at.Sub(last).Abs() <= parentSlack {
			return c.path
		}
	}
	return ""
}

// CompactedSince reports whether a compaction boundary follows the
// transcript's last response: then the next request carries the summary,
// not the last response's context, and re-writes little. It reads back
// from the end only as far as that response; an unreadable file says no.
func CompactedSince(path string) bool {
	f, fi, err := reading.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return compactedIn(f, fi.Size())
}

// compactedIn is CompactedSince on the first size bytes of f. Only a line
// holding a response's or a boundary's filter word is decoded.
func compactedIn(f io.ReaderAt, size int64) bool {
	found := false
	reading.ScanBack(f, size, func(line []byte) bool {
		if !bytes.Contains(line, []byte(transcript.AssistantWord)) && !bytes.Contains(line, []byte(transcript.BoundaryWord)) {
			return true
		}
		done := false
		transcript.Decode(line, func(r *transcript.Record) {
			switch {
			case r.IsBoundary():
				found, done = true, true
			case r.IsResponse():
				done = true
			}
		})
		return !done
	})
	return found
}
