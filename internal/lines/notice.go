package lines

import (
	"bytes"
	"strconv"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/window"
)

// The third header line holds the rest of what a notice says, so that a
// call that announces from a hit decodes no JSON either (the first
// decode of the Decision's types in a fresh process was a fifth of a
// notice call):
//
//	N <window tokens> <compacts at> <count> <sessions> <pause room> <spread> <source> <compacts source> <version> <reorientation words> <pace from>
//
// the spread being "-" or its share, low and high in Go's shortest exact
// form, and the last five Go-quoted strings.
const noticeTag = "N "

// noticeHeader is the notice line of the header for e.
func noticeHeader(e *Entry) []byte {
	d := &e.Decision
	w := d.Window
	b := make([]byte, 0, 256)
	b = append(b, noticeTag...)
	for _, n := range [...]int64{w.Tokens, w.CompactsAt, int64(w.Count), int64(w.Sessions), w.PauseRoom} {
		b = strconv.AppendInt(b, n, 10)
		b = append(b, ' ')
	}
	if s := d.Spread; s == nil {
		b = append(b, '-')
	} else {
		for i, x := range [...]float64{s.Share, s.Lo, s.Hi} {
			if i > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendFloat(b, x, 'g', -1, 64)
		}
	}
	for _, s := range [...]string{w.Source, w.CompactSource, w.Version, d.Reorientation.Words, d.PaceFrom} {
		b = append(b, ' ')
		b = strconv.AppendQuote(b, s)
	}
	return append(b, '\n')
}

// headers is the header lines of a cache file for e.
func headers(e *Entry) []byte {
	return append(append(append(header(e), statusHeader(e)...), noticeHeader(e)...), coldHeader(e)...)
}

// parseNotice reads a notice line into d; ok is false when it is
// malformed.
func parseNotice(line []byte, d *Decision) bool {
	rest := line[len(noticeTag):]
	field := func() []byte {
		i := bytes.IndexByte(rest, ' ')
		if i < 0 {
			return nil
		}
		f := rest[:i]
		rest = rest[i+1:]
		return f
	}
	var n [5]int64
	for i := range n {
		v, err := strconv.ParseInt(string(field()), 10, 64)
		if err != nil || v < 0 || (i >= 2 && i <= 3 && v > 1<<30) {
			return false
		}
		n[i] = v
	}
	var spread *forecast.Band
	if bytes.HasPrefix(rest, []byte("- ")) {
		rest = rest[2:]
	} else {
		var x [3]float64
		for i := range x {
			v, err := strconv.ParseFloat(string(field()), 64)
			if err != nil || v != v || v > 1e300 || v < -1e300 {
				return false
			}
			x[i] = v
		}
		spread = &forecast.Band{Share: x[0], Lo: x[1], Hi: x[2]}
	}
	var s [5]string
	for i := range s {
		if i > 0 {
			if len(rest) == 0 || rest[0] != ' ' {
				return false
			}
			rest = rest[1:]
		}
		q, err := strconv.QuotedPrefix(string(rest))
		if err != nil {
			return false
		}
		rest = rest[len(q):]
		if s[i], err = strconv.Unquote(q); err != nil {
			return false
		}
	}
	if len(rest) != 0 {
		return false
	}
	d.Window = window.Window{Tokens: n[0], CompactsAt: n[1], Count: int(n[2]), Sessions: int(n[3]), PauseRoom: n[4],
		Source: s[0], CompactSource: s[1], Version: s[2]}
	d.Spread, d.Reorientation.Words, d.PaceFrom = spread, s[3], s[4]
	return true
}

// Notice returns what a notice says from the header: the lines, whether
// pricing ran, the cost models, the window, the spread and the words
// naming the reorientation's source and the pace's prior. The other
// fields are zero. ok is false when the header lacks a part (an older
// build wrote it), and the caller decides the whole way.
func (x Header) Notice() (d Decision, ok bool) {
	h := &x.h
	if h.status == nil || h.notice == nil {
		return Decision{}, false
	}
	if d, ok = parseStatus(h.status, h.lineTokens()); !ok || !parseNotice(h.notice, &d) {
		return Decision{}, false
	}
	d.Compactions = h.compactions
	return d, true
}
