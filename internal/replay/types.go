package replay

import (
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/transcript"
)

// Model is what the replay asks of the lines and the cost model, one value
// per session. The walk calls Observe with every record it decodes, in file
// order, and Lines after each response, at the point where the hook, had
// the transcript ended there, would have computed its lines; so a Model
// that keeps the hook's line cache rule reproduces the hook's lines.
type Model interface {
	// Observe is told every decoded record, in order, with the line it
	// came from (the whole line, when damage spliced several records on
	// it). Neither is valid after the call.
	Observe(r *transcript.Record, line []byte)
	// Lines returns the lines in force after the latest response, whose
	// reading is given.
	Lines(reading int64) lines.Lines
	// Predict returns the model's figures at the latest response, or nil
	// when pricing did not run (fixed lines, an unpriced model): what the
	// hook would quote there.
	Predict(reading int64) *Prediction
	// Forecast is Predict made afresh at the latest response, without the
	// line cache's lag: what the forecast's points judge.
	Forecast(reading int64) *Prediction
}

// Prediction is what the cost model says at one point of a session.
type Prediction struct {
	// SavingUSD is what relaying there saves over the next 100k tokens.
	SavingUSD float64
	// CarryOnUSD is what carrying on over those 100k tokens costs.
	CarryOnUSD float64
	// Requests is how many requests the model expects the slice to take.
	Requests float64
	// Parts splits CarryOnUSD into cache reads, cache writes and output.
	Parts Parts
	// CompactUSD is what letting Claude Code compact costs over the slice,
	// nil when it compacts past it; Verdict is what the hook's notice
	// would say there (design §4.2).
	CompactUSD *float64
	Verdict    lines.Verdict
}

// Parts splits a cost into what was paid for cache reads, for input and
// cache writes, and for output.
type Parts struct {
	Read, Write, Output float64
}

// Total is the whole cost.
func (p Parts) Total() float64 { return p.Read + p.Write + p.Output }

func (p Parts) plus(q Parts) Parts {
	return Parts{p.Read + q.Read, p.Write + q.Write, p.Output + q.Output}
}

// Prices prices one response: its input, cache writes (5-minute and
// 1-hour), cache reads and output at its model's rates. ok is false when
// the model is unknown to the table.
type Prices interface {
	Cost(model, speed string, u *transcript.Usage) (usd Parts, ok bool)
}

// fixedModel is the Model of fixed lines: the same lines after every
// response and no dollars.
type fixedModel struct{ ls lines.Lines }

// FixedModel returns a Model whose lines are always ls and which never
// prices anything: what the hook does with fixed lines.
func FixedModel(ls lines.Lines) Model { return fixedModel{ls} }

func (fixedModel) Observe(*transcript.Record, []byte) {}
func (m fixedModel) Lines(int64) lines.Lines          { return m.ls }
func (fixedModel) Predict(int64) *Prediction          { return nil }
func (fixedModel) Forecast(int64) *Prediction         { return nil }

// TablePrices prices responses from a price table: each response at its
// model's and speed's row, at the band its prompt falls in.
type TablePrices struct {
	Table *prices.Table
}

// Cost implements Prices. The formula is the price table's own
// (prices.Row.Cost), applied to each part of the usage at the rates of the
// band the whole prompt falls in, so that replay and the hook price a
// response alike.
func (p TablePrices) Cost(model, speed string, u *transcript.Usage) (Parts, bool) {
	if p.Table == nil {
		return Parts{}, false
	}
	row, ok := p.Table.Lookup(model, speed)
	if !ok {
		return Parts{}, false
	}
	at := prices.Row{Rates: row.At(u.Context())}
	return Parts{
		Read: at.Cost(&transcript.Usage{CacheReadInputTokens: u.CacheReadInputTokens}),
		Write: at.Cost(&transcript.Usage{InputTokens: u.InputTokens,
			CacheCreationInputTokens: u.CacheCreationInputTokens, CacheCreation: u.CacheCreation}),
		Output: at.Cost(&transcript.Usage{OutputTokens: u.OutputTokens}),
	}, true
}
