package spend

import (
	"bufio"
	"bytes"
	"errors"
	"strconv"
	"strings"

	"github.com/muthur/context-budget/internal/prices"
)

// The tally is saved as lines of words, not JSON: every metered hook call
// loads and saves it, and encoding/json's first use of a type in a fresh
// process (its reflection over the fields) cost more than the rest of the
// call. Strings are Go-quoted; a day, minute or recent line belongs to the
// file line above it.
//
//	cbtally 1
//	transcript "<path>"
//	rateskey "<key>"
//	rate "<model/speed>" input output cache_read write_5m write_1h band_above [5 band rates]
//	unrate "<model/speed>"
//	unpriced "<model>"
//	note "<key>" "<value>"
//	inline <hex hash> <hex hash> …
//	file "<path>" offset check sub
//	day "<YYYY-MM-DD>" usd tokens unpriced responses
//	min minute usd tokens unpriced responses
//	recent "<id>" "<day>" minute usd tokens unpriced responses

const codecHeader = "cbtally 1"

var errCodec = errors.New("not a saved tally")

// Marshal encodes t for saving.
func (t *Tally) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString(codecHeader + "\n")
	line := func(words ...string) {
		b.WriteString(strings.Join(words, " "))
		b.WriteByte('\n')
	}
	q := strconv.Quote
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	sum := func(s Sum) []string { return []string{f(s.USD), i(s.Tokens), i(s.UnpricedTokens), i(s.Responses)} }
	line("transcript", q(t.Transcript))
	line("rateskey", q(t.RatesKey))
	for _, k := range sortedKeys(t.Rates) {
		r := t.Rates[k]
		if r == nil {
			line("unrate", q(k))
			continue
		}
		w := []string{"rate", q(k), f(r.Input), f(r.Output), f(r.CacheRead), f(r.CacheWrite5m), f(r.CacheWrite1h), i(r.BandAbove)}
		if r.Band != nil {
			w = append(w, f(r.Band.Input), f(r.Band.Output), f(r.Band.CacheRead), f(r.Band.CacheWrite5m), f(r.Band.CacheWrite1h))
		}
		line(w...)
	}
	for _, m := range t.Unpriced {
		line("unpriced", q(m))
	}
	for _, k := range sortedKeys(t.Notes) {
		line("note", q(k), q(t.Notes[k]))
	}
	if len(t.Inline) > 0 {
		w := []string{"inline"}
		for _, h := range t.Inline {
			w = append(w, strconv.FormatUint(h, 16))
		}
		line(w...)
	}
	for _, name := range sortedKeys(t.Files) {
		fl := t.Files[name]
		sub := "0"
		if fl.Sub {
			sub = "1"
		}
		line("file", q(name), i(fl.Offset), strconv.FormatUint(fl.Check, 10), sub)
		for _, d := range sortedKeys(fl.Days) {
			line(append([]string{"day", q(d)}, sum(fl.Days[d])...)...)
		}
		for _, m := range sortedKeys(fl.Minutes) {
			line(append([]string{"min", i(m)}, sum(fl.Minutes[m])...)...)
		}
		for _, r := range fl.Recent {
			line(append([]string{"recent", q(r.ID), q(r.Day), i(r.Minute)}, sum(r.Sum)...)...)
		}
	}
	return b.Bytes()
}

func sortedKeys[K int64 | string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for a := 1; a < len(keys); a++ {
		for c := a; c > 0 && keys[c] < keys[c-1]; c-- {
			keys[c], keys[c-1] = keys[c-1], keys[c]
		}
	}
	return keys
}

// Unmarshal decodes a saved tally.
func Unmarshal(data []byte) (*Tally, error) {
	t := &Tally{Files: map[string]*File{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	if !sc.Scan() || sc.Text() != codecHeader {
		return nil, errCodec
	}
	var cur *File
	for sc.Scan() {
		w, ok := splitWords(sc.Text())
		if !ok || len(w) == 0 {
			return nil, errCodec
		}
		args := w[1:]
		bad := false
		num := func(k int) float64 {
			if k >= len(args) {
				bad = true
				return 0
			}
			v, err := strconv.ParseFloat(args[k], 64)
			if err != nil {
				bad = true
			}
			return v
		}
		integer := func(k int) int64 {
			if k >= len(args) {
				bad = true
				return 0
			}
			v, err := strconv.ParseInt(args[k], 10, 64)
			if err != nil {
				bad = true
			}
			return v
		}
		sumAt := func(k int) Sum { return Sum{num(k), integer(k + 1), integer(k + 2), integer(k + 3)} }
		str := func(k int) string {
			if k >= len(args) {
				bad = true
				return ""
			}
			return args[k]
		}
		switch w[0] {
		case "transcript":
			t.Transcript = str(0)
		case "rateskey":
			t.RatesKey = str(0)
		case "rate", "unrate":
			if t.Rates == nil {
				t.Rates = map[string]*prices.Row{}
			}
			if w[0] == "unrate" {
				t.Rates[str(0)] = nil
				break
			}
			r := &prices.Row{Rates: prices.Rates{Input: num(1), Output: num(2), CacheRead: num(3), CacheWrite5m: num(4), CacheWrite1h: num(5)}, BandAbove: integer(6)}
			if len(args) >= 12 {
				r.Band = &prices.Rates{Input: num(7), Output: num(8), CacheRead: num(9), CacheWrite5m: num(10), CacheWrite1h: num(11)}
			}
			t.Rates[str(0)] = r
		case "unpriced":
			t.Unpriced = append(t.Unpriced, str(0))
		case "note":
			if t.Notes == nil {
				t.Notes = map[string]string{}
			}
			t.Notes[str(0)] = str(1)
		case "inline":
			for _, a := range args {
				h, err := strconv.ParseUint(a, 16, 64)
				if err != nil {
					bad = true
				}
				t.Inline = append(t.Inline, h)
			}
		case "file":
			check, err := strconv.ParseUint(str(2), 10, 64)
			if err != nil {
				bad = true
			}
			cur = &File{Offset: integer(1), Check: check, Sub: str(3) == "1", Days: map[string]Sum{}}
			t.Files[str(0)] = cur
		case "day", "min", "recent":
			if cur == nil {
				return nil, errCodec
			}
			switch w[0] {
			case "day":
				cur.Days[str(0)] = sumAt(1)
			case "min":
				if cur.Minutes == nil {
					cur.Minutes = map[int64]Sum{}
				}
				cur.Minutes[integer(0)] = sumAt(1)
			default:
				cur.Recent = append(cur.Recent, recentRecord{ID: str(0), Day: str(1), Minute: integer(2), Sum: sumAt(3)})
			}
		default:
			// A line of a later version: skipped.
		}
		if bad {
			return nil, errCodec
		}
	}
	if sc.Err() != nil {
		return nil, errCodec
	}
	return t, nil
}

// splitWords splits a line into words: a Go-quoted string is one word,
// unquoted; anything else runs to the next space.
func splitWords(s string) ([]string, bool) {
	var w []string
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return w, true
		}
		if s[0] == '"' {
			p, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, false
			}
			u, err := strconv.Unquote(p)
			if err != nil {
				return nil, false
			}
			w = append(w, u)
			s = s[len(p):]
			continue
		}
		end := strings.IndexByte(s, ' ')
		if end < 0 {
			end = len(s)
		}
		w = append(w, s[:end])
		s = s[end:]
	}
}
