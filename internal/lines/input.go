package lines

import (
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/window"
)

// Input is the decision's input for call with the history h, the one
// place it is built, so that the hook, its recompute, the status line,
// `lines`, doctor, run and replay decide from the same things: the call's
// reading and session, the window our status line recorded for it (when
// the call names a state folder and a plain session id), the compaction
// point's sources the caller found (call.Sources), and, unless the lines
// are fixed or h is nil, the history and the price table (call.Table, else
// the embedded one).
func (call *Call) Input(h *forecast.History) Input {
	in := Input{Settings: call.Settings, Reading: call.Reading, RequestedModel: call.RequestedModel,
		Root: call.Root, SessionID: call.ID, TranscriptPath: call.Transcript, Getenv: call.Getenv, Version: call.Version,
		Own: call.Own, Sources: call.Sources}
	if call.Dir != "" && state.PlainName(call.ID) {
		in.StatuslineWindow = window.ReadFile(window.FileName(call.Dir, call.ID))
	}
	if h == nil || call.Settings.Fixed {
		return in
	}
	in.History, in.Table = h, call.Table
	if in.Table == nil {
		in.Table, _ = prices.Embedded()
	}
	return in
}

// FreshInput is call's input from a fresh pass over its transcript, as
// `lines`, doctor and run decide: with the prior the hook chose for the
// session's current climb, when its line cache holds one for the same
// transcript and climb (as many boundaries). The hook keeps a climb's
// prior until the next compaction, so that a ledger row written meanwhile
// does not move its lines, and `lines` must show the lines the hook
// holds. It reads the line cache and writes nothing.
func (call *Call) FreshInput() (Input, error) {
	if call.Settings.Fixed {
		return call.Input(nil), nil
	}
	var h forecast.History
	if err := h.Update(call.Transcript); err != nil {
		return call.Input(nil), err
	}
	if call.Dir != "" && state.PlainName(call.ID) {
		if e, ok := Load(call.Dir, call.ID); ok && e.Transcript == call.Transcript {
			if saved, ok := SavedHistory(call.Dir, call.ID); ok && saved.Boundaries == h.Boundaries && saved.Pace.Prior != nil {
				pr := *saved.Pace.Prior
				h.Pace.Prior, h.Pace.PriorFrom = &pr, saved.Pace.PriorFrom
			}
		}
	}
	return call.Input(&h), nil
}
