package replay

import (
	"bytes"
	"encoding/json"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/transcript"
)

// walker replays one session, record by record.
type walker struct {
	model  Model
	prices Prices
	series bool

	st    climb.Record // what the hook's climb record would hold
	cur   *response    // the response not yet evaluated
	held  []held
	carry carry
	out   *Session
	// pending are the forecast's points whose slice is still being
	// measured; those that reach it move to out.Points.
	pending []Point
	// lines are the lines of the latest hook call, called whether there
	// was one: the series entries before the first take its lines.
	lines  lines.Lines
	called bool
	cold   coldWatch
	// compacts is where the latest decision had Claude Code compact.
	compacts int64
}

// response is one of the session's own responses, gathered from its
// records (one per content block; the last carries the final output count).
type response struct {
	id      string
	reading int64
	model   string
	usage   transcript.Usage
	// tool: the response made a tool call, after which Claude Code runs
	// the PostToolUse hook; the hook decides only then.
	tool bool
	time string // the timestamp of its latest record
}

// held is a record kept back, with a copy of its line.
type held struct {
	r    transcript.Record
	line []byte
}

// record takes the next decoded record of the file and its line.
func (w *walker) record(r *transcript.Record, line []byte) {
	if r.Type == "user" {
		w.cold.user(r)
	}
	if w.out.Branch == "" && r.GitBranch != "" && !r.IsSidechain {
		w.out.Branch = r.GitBranch
	}
	switch {
	case r.IsResponse():
		if w.cur != nil && r.Message.ID != "" && r.Message.ID == w.cur.id {
			// Another block of the same response: what came between
			// precedes it in the file, so a hook run after it saw that too.
			w.flush()
			w.cur.usage = *r.Message.Usage
			w.cur.model = r.Message.Model
			w.cur.tool = w.cur.tool || MakesToolCall(r.Message.Content)
			w.cur.time = r.Timestamp
			w.model.Observe(r, line)
			return
		}
		w.finish()
		w.flush()
		w.coldCheck(r)
		u := r.Message.Usage
		w.cur = &response{id: r.Message.ID, reading: u.Context(), model: r.Message.Model, usage: *u,
			tool: MakesToolCall(r.Message.Content), time: r.Timestamp}
		w.model.Observe(r, line)
	case r.IsBoundary():
		w.finish()
		w.flush()
		w.boundary(r)
		w.model.Observe(r, line)
	case w.cur != nil:
		// Held until the response is evaluated: had the transcript ended
		// with the response's last record, the hook would not have seen
		// this one.
		w.held = append(w.held, held{*r, bytes.Clone(line)})
	default:
		w.model.Observe(r, line)
	}
}

func (w *walker) flush() {
	for i := range w.held {
		w.model.Observe(&w.held[i].r, w.held[i].line)
	}
	clear(w.held)
	w.held = w.held[:0]
}

// end closes the session: the last response is evaluated and carry-on
// windows still open have no actual.
func (w *walker) end() {
	w.finish()
	w.flush()
	w.carry.end()
	if w.called {
		ls := w.lines
		w.out.Lines = &ls
	}
	if o, ok := w.model.(interface{ Orientation() *OrientationCheck }); ok {
		w.out.Orientation = o.Orientation()
	}
}

// finish evaluates the pending response as the hook would after it.
func (w *walker) finish() {
	c := w.cur
	if c == nil {
		return
	}
	w.cur = nil
	w.cold.last = c
	w.cold.ttl1h = w.cold.ttl1h || c.usage.Write1h() > 0
	s := w.out
	k := s.Responses
	s.Responses++
	s.Peak = max(s.Peak, c.reading)
	s.Model = c.model
	if s.Started == "" {
		s.Started = c.time
	}
	// The response's own cost belongs to the windows opened before it.
	var cost Parts
	ok := false
	if w.prices != nil {
		cost, ok = w.prices.Cost(c.model, c.usage.Speed, &c.usage)
	}
	w.carry.add(c.reading, cost, ok)
	if ok {
		s.CostUSD = ptr(cost.Total() + deref(s.CostUSD))
	}
	if pr := w.model.Forecast(c.reading); pr != nil && w.prices != nil {
		w.pending = append(w.pending, Point{Response: k, Reading: c.reading, Model: c.model,
			PredictedRequests: pr.Requests, PredictedCarryOnUSD: pr.CarryOnUSD,
			PredictedReadUSD: pr.Parts.Read, PredictedWriteUSD: pr.Parts.Write, PredictedOutputUSD: pr.Parts.Output})
		w.carry.open(true, len(w.pending)-1, c.reading)
	}
	if c.tool {
		w.lines = w.model.Lines(c.reading)
		if cp, ok := w.model.(interface{ CompactsAt() int64 }); ok {
			w.compacts = cp.CompactsAt()
		}
	}
	ls := w.lines
	if w.series {
		s.Readings = append(s.Readings, c.reading)
		s.WarnLines = append(s.WarnLines, ls.Warn.Tokens)
		s.PauseLines = append(s.PauseLines, ls.Pause.Tokens)
		s.CompactPoints = append(s.CompactPoints, w.compacts)
		if c.tool && !w.called {
			// The responses before the first hook call take its lines.
			for i := range s.WarnLines {
				s.WarnLines[i], s.PauseLines[i], s.CompactPoints[i] = ls.Warn.Tokens, ls.Pause.Tokens, w.compacts
			}
		}
	}
	if !c.tool {
		// No tool call, no hook call: nothing is decided here.
		return
	}
	w.called = true
	compactions := w.st.Compactions
	if cm, ok := w.model.(interface{ Compactions() int }); ok {
		compactions = cm.Compactions()
	}
	next, fire := climb.StepIn(w.st, c.reading, ls.Tokens(), compactions)
	w.st = next
	if fire == climb.None {
		return
	}
	line := ls.Warn
	if fire == climb.Pause {
		line = ls.Pause
	}
	s.Notices = append(s.Notices, Notice{Level: fire.String(), Reading: c.reading,
		Line: line.Tokens, SetBy: line.SetBy, Response: k})
	if fire != climb.Pause {
		return
	}
	p := Pause{Response: k, Reading: c.reading}
	if pr := w.model.Predict(c.reading); pr != nil {
		p.SavingUSD = ptr(pr.SavingUSD)
		p.PredictedCarryOnUSD = ptr(pr.CarryOnUSD)
		p.PredictedRequests = ptr(pr.Requests)
		p.PredictedCompactUSD = pr.CompactUSD
		p.Choice, p.Against, p.NetUSD = pr.Verdict.Choice, pr.Verdict.Against, ptr(pr.Verdict.NetUSD)
	}
	s.Pauses = append(s.Pauses, p)
	w.carry.open(false, len(s.Pauses)-1, c.reading)
}

func deref(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}

func (w *walker) boundary(r *transcript.Record) {
	// After a compaction the context the next request carries is not the
	// last response's: no cold re-write is measured across it.
	w.cold.last = nil
	b := Boundary{Kind: "compact", AfterResponse: w.out.Responses - 1}
	m := r.CompactMetadata
	if r.Subtype == "microcompact_boundary" {
		b.Kind, m = "microcompact", r.MicrocompactMetadata
	} else {
		w.out.Compactions++
	}
	if m != nil {
		b.Trigger, b.PreTokens = m.Trigger, m.PreTokens
	}
	w.out.Boundaries = append(w.out.Boundaries, b)
	w.carry.end()
}

func ptr[T any](v T) *T { return &v }

// MakesToolCall reports whether a response's content holds a tool_use
// block with an id: a call after which Claude Code runs the PostToolUse
// hook.
func MakesToolCall(content json.RawMessage) bool {
	if !bytes.Contains(content, []byte(`"tool_use"`)) {
		return false
	}
	var blocks []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return false
	}
	for _, b := range blocks {
		if b.Type == "tool_use" && b.ID != "" {
			return true
		}
	}
	return false
}
