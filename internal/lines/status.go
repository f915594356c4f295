package lines

import (
	"bytes"
	"strconv"

	"github.com/muthur/context-budget/internal/restart"
)

// The second header line holds what the status line shows, so that it
// too answers without decoding JSON (it runs every few hundred
// milliseconds while a session is open):
//
//	S <priced 0|1> <warn set_by> <pause set_by> <band above> <cost model> [<band model>]
//
// a model being its eight numbers (restart.Model: read, output and write
// rates, q, W, R, ρ, ō) in Go's shortest exact form. The lines' tokens are
// the H line's.
const statusTag = "S "

// statusHeader is the status line of the header for e.
func statusHeader(e *Entry) []byte {
	d := &e.Decision
	b := make([]byte, 0, 256)
	b = append(b, statusTag...)
	if d.Priced {
		b = append(b, '1')
	} else {
		b = append(b, '0')
	}
	for _, sb := range []SetBy{d.Lines.Warn.SetBy, d.Lines.Pause.SetBy} {
		b = append(b, ' ')
		b = append(b, word(string(sb))...)
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, d.BandAbove, 10)
	b = appendModel(b, d.Cost)
	if d.Band != nil {
		b = appendModel(b, *d.Band)
	}
	return append(b, '\n')
}

// word is s as one field of the line: "-" for empty, and anything that
// would split the line replaced; the set_by values are plain words.
func word(s string) string {
	if s == "" || s == "-" {
		return "-"
	}
	if bytes.ContainsAny([]byte(s), " \n\t") {
		return "?"
	}
	return s
}

func appendModel(b []byte, m restart.Model) []byte {
	for _, x := range [...]float64{m.Read, m.Output, m.Write, m.Q, float64(m.W), m.R, m.Rewrite, m.OutPerRequest} {
		b = append(b, ' ')
		b = strconv.AppendFloat(b, x, 'g', -1, 64)
	}
	return b
}

// parseStatus reads the status line of a header into the part of a
// Decision the status line uses: the lines, whether pricing ran and the
// cost models. ok is false when it is malformed.
func parseStatus(line []byte, ls Lines) (d Decision, ok bool) {
	fa, n := fields(line[len(statusTag):])
	f := fa[:n]
	if len(f) != 4+8 && len(f) != 4+16 {
		return Decision{}, false
	}
	switch string(f[0]) {
	case "0":
	case "1":
		d.Priced = true
	default:
		return Decision{}, false
	}
	ls.Warn.SetBy, ls.Pause.SetBy = setBy(f[1]), setBy(f[2])
	d.Lines = ls
	above, err := strconv.ParseInt(string(f[3]), 10, 64)
	if err != nil || above < 0 {
		return Decision{}, false
	}
	d.BandAbove = above
	if d.Cost, ok = parseModel(f[4:12]); !ok {
		return Decision{}, false
	}
	if len(f) == 4+16 {
		band, ok := parseModel(f[12:])
		if !ok {
			return Decision{}, false
		}
		d.Band = &band
	}
	return d, true
}

func setBy(w []byte) SetBy {
	if string(w) == "-" {
		return ""
	}
	return SetBy(w)
}

func parseModel(f [][]byte) (restart.Model, bool) {
	var x [8]float64
	for i := range x {
		v, err := strconv.ParseFloat(string(f[i]), 64)
		if err != nil || v != v || v > 1e300 || v < -1e300 {
			return restart.Model{}, false
		}
		x[i] = v
	}
	if x[4] < 0 || x[4] > 1<<40 {
		return restart.Model{}, false
	}
	return restart.Model{Rates: restart.Rates{Read: x[0], Output: x[1], Write: x[2]}, Q: x[3], W: int64(x[4]), R: x[5],
		Rewrite: x[6], OutPerRequest: x[7]}, true
}

// Cached returns what the session's cache holds for the status line, when
// it was made under the Key call has now, whatever the reading: the status
// line shows the lines the hook last decided and never prices on its own
// (the hook keeps the cache fresh after every tool call). It reads the
// header only: the Decision has the lines, Priced and the cost models, the
// rest zero. ok is false when there is no such cache; a cache without the
// status line (written by an older build) is read whole.
func Cached(call *Call) (d Decision, ok bool) {
	var buf [maxHeader]byte
	h, found, ok := readHeaderLines(call, buf[:])
	if !found || h.status == nil {
		return cachedWhole(call)
	}
	if !ok {
		return Decision{}, false
	}
	return parseStatus(h.status, h.lineTokens())
}

// lineTokens is the lines of the hit line, their setters unknown.
func (h *headerLines) lineTokens() Lines {
	return Lines{Warn: Line{Tokens: h.tokens.Warn}, Pause: Line{Tokens: h.tokens.Pause}}
}

// cachedWhole is Cached by decoding the whole entry.
func cachedWhole(call *Call) (Decision, bool) {
	c, ok := load(FileName(call.Dir, call.ID))
	if !ok || c.Key != call.Key() {
		return Decision{}, false
	}
	return c.Decision, true
}
