package cold

import (
	"encoding/hex"
	"hash/fnv"
	"path/filepath"
	"strings"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
)

// Spell is what the state folder keeps of a session's current cold spell,
// in <dir>/<session_id>.cold: the stop must come once per spell, and a
// prompt sent again must pass.
type Spell struct {
	// ID names the spell: the last response before it (message id and
	// timestamp). A response landing ends the spell, and the next cold
	// spell has another ID.
	ID string `json:"id"`
	// Prompt is the hash of the prompt last stopped in this spell.
	Prompt string `json:"prompt,omitempty"`
	// Passed is set once a prompt went through in this spell: the user
	// chose to carry on (or the figures were given, under warn), and
	// nothing more is stopped before a response lands.
	Passed bool `json:"passed,omitempty"`
}

// SpellFile is the spell file of a session.
func SpellFile(dir, id string) string {
	return filepath.Join(dir, id+state.ColdSuffix)
}

// SpellID names the spell that follows the response with message id and
// timestamp stamp.
func SpellID(id, stamp string) string {
	return id + "@" + stamp
}

// HashPrompt fingerprints a prompt, so the state folder holds no prompt
// text. White space around it does not count: the prompt sent again is
// the same prompt.
func HashPrompt(prompt string) string {
	// FNV: no adversary, and crypto/sha256's package set costs every hook
	// call at start.
	h := fnv.New128a()
	h.Write([]byte(strings.TrimSpace(prompt)))
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// LoadSpell reads a spell file; a missing or unreadable one is no spell,
// as is one past reading.MaxSideFile or not a regular file (a planted
// link to /dev/zero or a FIFO, read by the one reader).
func LoadSpell(name string) Spell {
	sp, _ := state.FromJSON[Spell](reading.ReadFile(name, reading.MaxSideFile))
	return sp
}

// SaveSpell writes a spell file atomically.
func SaveSpell(name string, sp Spell) error {
	return state.WriteJSON(name, sp)
}

// Verdict is what becomes of one prompt in a cold spell.
type Verdict int

// The verdicts.
const (
	// Pass lets the prompt through untouched.
	Pass Verdict = iota
	// Stop blocks it with the figures.
	Stop
	// Tell lets it through with the figures in the model's context.
	Tell
)

// Step is the once-per-spell rule, without the file: what to do with a
// prompt and what to record (changed false: nothing to write). Under
// block, a spell's first prompt is stopped, the same prompt sent again
// passes and ends the stops, and a different one is stopped once more.
// Under warn, the first prompt carries the figures and the rest pass.
func Step(rec Spell, id, prompt string, warn bool) (next Spell, v Verdict, changed bool) {
	if rec.ID != id {
		rec = Spell{ID: id}
	}
	if rec.Passed {
		return rec, Pass, false
	}
	if warn {
		rec.Passed = true
		return rec, Tell, true
	}
	if rec.Prompt == prompt {
		rec.Passed = true
		return rec, Pass, true
	}
	rec.Prompt = prompt
	return rec, Stop, true
}
