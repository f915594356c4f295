package fuse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/ledger"
)

// Halt is one halt of a session, as the fuse records it and the session's
// ledger row keeps it (one type: the row holds what the fuse wrote):
// under `claude -p` Claude Code shows only that a hook stopped the run,
// so budget status, the ledger row and context-budget run read it here.
type Halt = ledger.Halt

// The halts' reasons: the session's cap, the project's daily cap, one
// call repeated, and an armed fuse that could not decide, so it denied.
const (
	HaltCap  = "cap"
	HaltDay  = "day"
	HaltLoop = "loop"
	HaltFuse = "fuse"
)

// maxHalts bounds the halts a session keeps.
const maxHalts = 32

// recordHalt adds h, stamped now, to the session's halts unless the last
// one is the same halt (its reason, cap and words but for the figures):
// a cap held over many calls is one halt. The file is replaced, as every
// file of the fuse's, never appended to in place. It takes no lock: a
// fail-closed deny may record one because the lock could not be taken;
// two calls that halt at once halt for the same cause, so the one whose
// write lands first is the halt kept.
func recordHalt(dir, session string, h Halt) {
	h.At = time.Now().UTC().Format(time.RFC3339)
	fo, err := openFolder(dir, true)
	if err != nil {
		return
	}
	defer fo.close()
	data, _ := fo.read(session+HaltsSuffix, reading.MaxSideFile)
	last := parseHalts(data)
	if n := len(last); n > 0 && sameHalt(last[n-1], h) || n >= maxHalts {
		return
	}
	if n := len(data); n > 0 && data[n-1] != '\n' {
		data = append(data, '\n')
	}
	line, _ := json.Marshal(h)
	fo.write(session+HaltsSuffix, append(append(data, line...), '\n'))
}

// sameHalt reports whether two halts are one: the same reason and cap,
// and words alike up to their first figure.
func sameHalt(a, b Halt) bool {
	cut := func(s string) string {
		if i := strings.IndexAny(s, "$0123456789"); i >= 0 {
			return s[:i]
		}
		return s
	}
	return a.Reason == b.Reason && a.Cap == b.Cap && cut(a.Words) == cut(b.Words)
}

// Halts reads a session's halts in the fuse's folder dir, oldest first;
// a line that does not parse is skipped.
func Halts(dir, session string) []Halt {
	if dir == "" || !state.PlainName(session) {
		return nil
	}
	fo, err := openFolder(dir, false)
	if err != nil {
		return nil
	}
	defer fo.close()
	data, err := fo.read(session+HaltsSuffix, reading.MaxSideFile)
	if err != nil {
		return nil
	}
	return parseHalts(data)
}

// parseHalts reads the halts of a halts file; a line that does not
// parse is skipped.
func parseHalts(data []byte) []Halt {
	var hs []Halt
	for _, line := range bytes.Split(data, []byte("\n")) {
		var h Halt
		if json.Unmarshal(line, &h) == nil && h.Reason != "" {
			hs = append(hs, h)
		}
	}
	return hs
}

// loopWords says what a loop halt stopped: the call (Describe's words)
// and how many times in a row it ran.
func loopWords(count int, call string) string {
	return fmt.Sprintf("the same tool call ran %d times in a row (%s)", count, call)
}

// SharedWords is what of a halt's words may leave the machine (the
// team's telemetry): a cap's in full, what was spent of it; a loop's with
// the call named by its tool alone, since the command, path or address
// Describe puts after the tool's name may hold what its person keeps to
// themselves; an undecided call's none, as its cause names a command or
// a path.
func SharedWords(h Halt) string {
	switch h.Reason {
	case HaltCap, HaltDay:
		return h.Words
	case HaltLoop:
		head, call, ok := strings.Cut(h.Words, " (")
		if !ok {
			return ""
		}
		tool, _, _ := strings.Cut(strings.TrimSuffix(call, ")"), ":")
		return head + " (" + tool + ")"
	}
	return ""
}

// HaltWords says what the fuse recorded of a session's last halt, for
// context-budget run: "" when it recorded none since since (zero: ever).
func HaltWords(getenv func(string) string, root, session string, since time.Time) string {
	hs := Halts(Dir(getenv, root), session)
	if len(hs) == 0 {
		return ""
	}
	h := hs[len(hs)-1]
	if at, err := time.Parse(time.RFC3339Nano, h.At); !since.IsZero() && (err != nil || at.Before(since)) {
		return ""
	}
	switch h.Reason {
	case HaltLoop:
		return "the loop fuse: " + h.Words
	case HaltFuse:
		return "the spend fuse could not decide, so it denied: " + h.Words
	}
	return "the spend fuse: " + h.Words
}
