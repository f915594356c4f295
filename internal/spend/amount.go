// Package spend counts what a session has spent, in dollars at API rates
// and in tokens, and how much of a cap it has spent.
//
// The tally (Tally, Update) reads the session's transcript and its
// subagents' transcripts forwards from where the last call stopped, so a
// call costs what was appended since, not the file's size. One response
// is one message.id, the last record of the id counting (its output count
// is the final one), and a response held in two files (an inline
// sidechain and its subagents/ file) counts once. Each response is priced
// at its own model's rates; a model the price table does not know counts
// its tokens and no dollars.
package spend

import (
	"fmt"

	"github.com/muthur/context-budget/internal/tuning"
)

// Share returns how much of cap a has been spent: 1 is the whole cap. A
// dollar cap counts no spend that has no price.
func Share(a tuning.Amount, s Sum) float64 {
	if a.Tokens > 0 {
		return float64(s.Tokens) / float64(a.Tokens)
	}
	if a.USD > 0 {
		return s.USD / a.USD
	}
	return 0
}

// Spent writes what of s counts against a, in a's unit.
func Spent(a tuning.Amount, s Sum) string {
	if a.Tokens > 0 {
		return tuning.FormatTokens(s.Tokens) + " tokens"
	}
	return fmt.Sprintf("$%.2f", s.USD)
}
