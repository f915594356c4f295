package lines

import (
	"strconv"

	"github.com/muthur/context-budget/internal/history"
)

// The fourth header line holds what the status line's cold mark needs of
// the history, so that an idle session's bar decodes no JSON either (the
// decode of the whole entry was most of the gap between the cold bar and
// the warm one, measured):
//
//	C <first response's cache read, or - without one> <1-hour cache 0|1>
//
// The re-write is priced at the reading the status line has then, which
// may be past the entry's (the turn's last response runs no PostToolUse
// hook): its rates are the S line's cost models, one chosen by the
// reading as Decision.At does. The first response's cache read is the
// prefix P other sessions keep warm; the 1-hour flag is the history's
// TTL1h.
const coldTag = "C "

// coldHeader is the cold line of the header for e.
func coldHeader(e *Entry) []byte {
	h := &e.History
	b := make([]byte, 0, 32)
	b = append(b, coldTag...)
	if h.First == nil {
		b = append(b, '-')
	} else {
		b = strconv.AppendInt(b, h.First.CacheRead, 10)
	}
	if h.TTL1h {
		b = append(b, " 1"...)
	} else {
		b = append(b, " 0"...)
	}
	return append(b, '\n')
}

// parseCold reads a cold line into h's First (its cache read alone) and
// TTL1h; ok is false when it is malformed.
func parseCold(line []byte, h *history.History) bool {
	fa, n := fields(line[len(coldTag):])
	f := fa[:n]
	if len(f) != 2 {
		return false
	}
	var first *history.Response
	if string(f[0]) != "-" {
		p, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			return false
		}
		first = &history.Response{CacheRead: p}
	}
	switch string(f[1]) {
	case "0":
		h.TTL1h = false
	case "1":
		h.TTL1h = true
	default:
		return false
	}
	h.First = first
	return true
}

// Cold returns what the cold check prices a re-write with, from the header
// of the cache file name alone, whatever Key it was made under and
// whatever its reading (as the status line's cold mark takes the whole
// entry): the Decision's Priced and cost models (the S line), the
// History's first response, its cache read alone, and TTL1h (the C
// line); the other fields zero. ok is false when the header lacks either
// line or one is malformed (an older build wrote the file, or it is
// provisional: Partial), and the caller loads the entry whole.
func Cold(name string) (d Decision, h history.History, ok bool) {
	var buf [maxHeader]byte
	hl, _, ok := readHeaderFile(name, buf[:])
	if !ok || hl.status == nil || hl.cold == nil {
		return Decision{}, history.History{}, false
	}
	if d, ok = parseStatus(hl.status, hl.lineTokens()); !ok || !parseCold(hl.cold, &h) {
		return Decision{}, history.History{}, false
	}
	return d, h, true
}
