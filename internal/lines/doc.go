// Package lines owns a session's warn and pause lines (design §4, §4.1,
// §5, §6.1): the one decision the hook, `lines`, the status line and
// replay all apply, the window cap's application, and the per-session
// cache of the decision that keeps pricing off most hook calls.
//
// # The decision
//
// Decide makes it, in order:
//
//  1. The caps, 300,000 (warn) and 400,000 (pause), each replaced by its
//     MUTHUR_CONTEXT_BUDGET_WARN / _PAUSE value when set ("env").
//  2. Pricing, unless MUTHUR_CONTEXT_BUDGET_LINES=fixed, the model is not
//     in the price table, or there is no history: each line not fixed by
//     env moves to where relaying saves its dollar threshold, when that is
//     below its cap ("priced"). Pricing only ever moves a line earlier.
//  3. The window cap (package window finds the window and its compaction
//     point; it is applied here, and only here): the pause line is never
//     later than the compaction point minus RelayRoom, the warn line never
//     later than that minus WarnRoom ("window"). A line fixed by env is not
//     moved; `lines` warns when it lies past the compaction point.
//
// Every line carries what set it (SetBy). Pricing "ran" when the model is
// priced and the lines are not fixed; then the notice carries the relay's
// dollars (Money) whichever rule set the line.
//
// # The cache
//
// The cache of a session is <state dir>/<session_id>.line: a JSON record of
// the Decision, the reading it was made at, a Key naming everything else
// it depends on, and the transcript History with its byte offset. It is
// recomputed (DecideCached) only when
//
//   - the reading has grown Regrowth (10,000) tokens past the reading it
//     was made at,
//   - the reading dropped below it (a compaction, a rewind),
//   - the reading crossed 200,000 from below (evidence of a 1M window), or
//   - the Key changed: thresholds, caps, fixed lines, the window variables,
//     the embedded table's as_of, the size and time of the price override
//     files, the statusline's window record, the reorientation's stamp,
//     the transcript's path.
//
// A hit reads one small file (its Quick part, by path) and stats the
// files it depends on: no TOML, no pass over the transcript. A recompute
// resumes the history from its saved offset.
//
// # Bounded passes
//
// No call reads more than PassSlice bytes of transcript: a pass that
// starts far behind (the first priced call on a long transcript, a lost
// cache) reads one slice per call, resuming from its offset, and the
// entry is marked Partial so that the next call, whatever its reading,
// goes on with it. Until the pass has caught up the lines stay at what
// is known: the entry's previous decision when it was complete and made
// under the same Key, else the lines without pricing (the caps, moved by
// the window the pass has seen so far). Once it has caught up the lines
// are priced as usual; the moved-lines rule below covers their move.
//
// # Moved lines
//
// Priced lines move as measurements settle; the once-per-climb rule
// (package climb) stays right when they do: a line that moves out never
// re-fires a level already given, a line that moves in fires the level
// now due at once, and a moved line alone never re-arms: only a real
// drop of the reading below both warn lines does.
package lines
