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
//     env moves to the first context where relaying saves its dollar
//     threshold against the real alternative (Net: letting Claude Code
//     compact where the window's point lies within the slice, else
//     carrying on), when that is below its cap ("priced"). Pricing only
//     ever moves a line earlier.
//  3. The window cap (package window finds the compaction point): the
//     pause line is never later than the point minus RelayRoom, the warn
//     line never later than that minus WarnRoom ("window"). A line fixed
//     by env is not moved; `lines` warns when it lies past the point.
//
// Every line carries what set it (SetBy). When pricing ran, the notice
// carries the relay's dollars (Money) whichever rule set the line, and
// one verdict (Decision.Verdict): the choice, the alternative, relaying's
// net saving over it and the policy, from what the line cache keeps.
//
// # The input
//
// Call.Input builds the decision's input, the one place it is built: the
// hook's recompute, its fallback, the status line, replay and, through
// Call.FreshInput, `lines`, doctor and run decide from it.
//
// # The cache
//
// <state dir>/<session_id>.line holds the Decision, the reading it was
// made at and what else it depends on (Made). DecideCached recomputes only
// when the reading has grown Regrowth tokens past it, dropped below it, or
// crossed 200,000 from below (Fresh), or a dependency changed: settings,
// variables, price override files, the status line's window record, the
// ledger, the transcript's path. A hit reads one small file (its Quick
// part, by path) and stats the files it depends on. A recompute resumes
// the history from its saved offset, reading at most PassSlice bytes: a
// pass that starts far behind marks the entry Partial and goes on at the
// next call, the lines staying meanwhile at the entry's previous complete
// decision under the same dependencies, else at the unpriced lines.
//
// # Moved lines
//
// Priced lines move as measurements settle; the once-per-climb rule
// (package climb) stays right when they do: a line that moves out never
// re-fires a level already given, a line that moves in fires the level
// now due at once, and a moved line alone never re-arms: only a real
// drop of the reading below both warn lines does.
package lines
