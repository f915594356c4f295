package prices

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The price file is TOML, but only the part of TOML its shape needs is
// read here: comments, `key = value` pairs with bare or quoted keys, the
// `[[model]]` array of tables, a `[model.band]` table (or an inline
// `band = { … }`), basic and literal strings, integers and floats. A file
// using more of TOML is refused with the line it stops at, as a file with
// an unknown key is.
//
// Why not a TOML library: the hook links this package, and the library's
// package initialisation (it loads /etc/localtime) ran on every hook call
// while a price override file is rare. This reader has no package state at
// all. Its tests check it against BurntSushi/toml on every input it
// accepts.

// maxRate bounds a rate: no model costs a million dollars per million
// tokens, and a rate that large multiplied by a session's tokens would
// overflow a sum to +Inf, which the ledger cannot write.
const maxRate = 1e6

// maxBandAbove bounds band_above: no context holds more tokens.
const maxBandAbove = 1 << 40

// Parse reads a price table from the text of a price file; name is used
// in errors. Every rate must be a finite number in [0, 1e6].
func Parse(data []byte, name string) (*Table, error) {
	t, err := parseTOML(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := t.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

// check range-checks the table: a price that is not a finite,
// non-negative number would make every cost NaN or infinite.
func (t *Table) check() error {
	for i, r := range t.Rows {
		if r.ID == "" {
			return fmt.Errorf("model row %d has no id", i+1)
		}
		if err := r.Rates.check(); err != nil {
			return fmt.Errorf("model %s: %w", r.ID, err)
		}
		if r.BandAbove < 0 || r.BandAbove > maxBandAbove {
			return fmt.Errorf("model %s: band_above %d is out of range", r.ID, r.BandAbove)
		}
		if r.BandAbove > 0 && r.Band == nil {
			return fmt.Errorf("model %s has band_above but no [model.band]", r.ID)
		}
		if r.Band != nil {
			if err := r.Band.check(); err != nil {
				return fmt.Errorf("model %s band: %w", r.ID, err)
			}
		}
	}
	return nil
}

func (r *Rates) check() error {
	for _, v := range []struct {
		name string
		v    float64
	}{{"input", r.Input}, {"output", r.Output}, {"cache_read", r.CacheRead},
		{"cache_write_5m", r.CacheWrite5m}, {"cache_write_1h", r.CacheWrite1h}} {
		if math.IsNaN(v.v) || v.v < 0 || v.v > maxRate {
			return fmt.Errorf("rate %s = %v is not a price (a finite number from 0 to %g)", v.name, v.v, float64(maxRate))
		}
	}
	return nil
}

// value is a parsed TOML value: a string, an integer, a float or an
// inline table.
type value struct {
	kind  byte // 's', 'i', 'f', 't'
	s     string
	i     int64
	f     float64
	table []pair
}

type pair struct {
	key string
	val value
}

// tomlParser reads the subset line by line.
type tomlParser struct {
	src  string
	pos  int
	line int
}

var errSubset = errors.New("not part of TOML a price file uses")

func (p *tomlParser) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d: "+format, append([]any{p.line}, args...)...)
}

// parseTOML reads the subset into a table, refusing unknown keys and keys
// set twice, as decoding into the Table with BurntSushi/toml did.
func parseTOML(data []byte) (*Table, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not UTF-8 text")
	}
	// TOML allows no control character but tab and line ends anywhere,
	// in comments and strings included.
	for i, c := range data {
		lineEnd := c == '\n' || c == '\r' && i+1 < len(data) && data[i+1] == '\n'
		if c < 0x20 && c != '\t' && !lineEnd || c == 0x7f {
			return nil, fmt.Errorf("line %d: control character %#x", 1+bytes.Count(data[:i], []byte{'\n'}), c)
		}
	}
	p := &tomlParser{src: string(data), line: 1}
	t := &Table{}
	// where: 0 top level, 1 in a [[model]], 2 in its [model.band].
	where := 0
	seen := map[string]bool{} // keys set in the current table
	for {
		p.skipBlank()
		if p.pos >= len(p.src) {
			break
		}
		if p.src[p.pos] == '[' {
			header, err := p.header()
			if err != nil {
				return nil, err
			}
			switch header {
			case "[[model]]":
				t.Rows = append(t.Rows, Row{})
				where = 1
			case "[model.band]":
				if len(t.Rows) == 0 {
					return nil, p.errorf("[model.band] before any [[model]]")
				}
				r := &t.Rows[len(t.Rows)-1]
				if r.Band != nil {
					return nil, p.errorf("model %q has two bands", r.ID)
				}
				r.Band = &Rates{}
				where = 2
			default:
				return nil, p.errorf("table %s: %w", header, errSubset)
			}
			seen = map[string]bool{}
			if err := p.endOfLine(); err != nil {
				return nil, err
			}
			continue
		}
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if !p.eat('=') {
			return nil, p.errorf("want = after key %q", key)
		}
		p.skipSpace()
		v, err := p.value(0)
		if err != nil {
			return nil, err
		}
		if seen[key] {
			return nil, p.errorf("key %q set twice", key)
		}
		seen[key] = true
		switch where {
		case 0:
			if key != "as_of" {
				return nil, p.errorf("unknown key %s", key)
			}
			if v.kind != 's' {
				return nil, p.errorf("as_of is not a string")
			}
			t.AsOf = v.s
		case 1:
			if err := p.setRow(&t.Rows[len(t.Rows)-1], key, v); err != nil {
				return nil, err
			}
		case 2:
			if err := p.setRate(t.Rows[len(t.Rows)-1].Band, key, v, "model.band."); err != nil {
				return nil, err
			}
		}
		if err := p.endOfLine(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (p *tomlParser) setRow(r *Row, key string, v value) error {
	switch key {
	case "id", "speed":
		if v.kind != 's' {
			return p.errorf("%s is not a string", key)
		}
		if key == "id" {
			r.ID = v.s
		} else {
			r.Speed = v.s
		}
	case "band_above":
		if v.kind != 'i' {
			return p.errorf("band_above is not an integer")
		}
		r.BandAbove = v.i
	case "band":
		if v.kind != 't' {
			return p.errorf("band is not a table")
		}
		if r.Band != nil {
			return p.errorf("model %q has two bands", r.ID)
		}
		r.Band = &Rates{}
		seen := map[string]bool{}
		for _, kv := range v.table {
			if seen[kv.key] {
				return p.errorf("key band.%s set twice", kv.key)
			}
			seen[kv.key] = true
			if err := p.setRate(r.Band, kv.key, kv.val, "model.band."); err != nil {
				return err
			}
		}
	default:
		return p.setRate(&r.Rates, key, v, "model.")
	}
	return nil
}

func (p *tomlParser) setRate(r *Rates, key string, v value, prefix string) error {
	var f *float64
	switch key {
	case "input":
		f = &r.Input
	case "output":
		f = &r.Output
	case "cache_read":
		f = &r.CacheRead
	case "cache_write_5m":
		f = &r.CacheWrite5m
	case "cache_write_1h":
		f = &r.CacheWrite1h
	default:
		return p.errorf("unknown key %s%s", prefix, key)
	}
	switch v.kind {
	case 'i':
		*f = float64(v.i)
	case 'f':
		*f = v.f
	default:
		return p.errorf("%s is not a number", key)
	}
	return nil
}

// skipBlank skips spaces, newlines and comments.
func (p *tomlParser) skipBlank() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; c {
		case ' ', '\t':
			p.pos++
		case '\r':
			if p.pos+1 >= len(p.src) || p.src[p.pos+1] != '\n' {
				return // left for the caller to refuse
			}
			p.pos++
		case '\n':
			p.pos++
			p.line++
		case '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

func (p *tomlParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

func (p *tomlParser) eat(c byte) bool {
	if p.pos < len(p.src) && p.src[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// endOfLine accepts spaces and a comment up to the end of the line.
func (p *tomlParser) endOfLine() error {
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '#' {
		for p.pos < len(p.src) && p.src[p.pos] != '\n' {
			p.pos++
		}
	}
	if p.eat('\r') && (p.pos >= len(p.src) || p.src[p.pos] != '\n') {
		return p.errorf("a carriage return alone")
	}
	if p.pos < len(p.src) && p.src[p.pos] != '\n' {
		return p.errorf("unexpected %q after the value", p.src[p.pos])
	}
	return nil
}

// header reads `[[model]]` or `[model.band]` (spaces around the names
// allowed, as in TOML) and returns it without the spaces.
func (p *tomlParser) header() (string, error) {
	open, close := "[", "]"
	if strings.HasPrefix(p.src[p.pos:], "[[") {
		open, close = "[[", "]]"
	}
	p.pos += len(open)
	var names []string
	for {
		p.skipSpace()
		start := p.pos
		for p.pos < len(p.src) && isBare(p.src[p.pos]) {
			p.pos++
		}
		if p.pos == start {
			return "", p.errorf("bad table header: %w", errSubset)
		}
		names = append(names, p.src[start:p.pos])
		p.skipSpace()
		if !p.eat('.') {
			break
		}
	}
	if !strings.HasPrefix(p.src[p.pos:], close) {
		return "", p.errorf("bad table header")
	}
	p.pos += len(close)
	return open + strings.Join(names, ".") + close, nil
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// key reads a bare or quoted key. A dotted key is outside the subset.
func (p *tomlParser) key() (string, error) {
	var k string
	if p.pos < len(p.src) && (p.src[p.pos] == '"' || p.src[p.pos] == '\'') {
		v, err := p.str()
		if err != nil {
			return "", err
		}
		k = v
	} else {
		start := p.pos
		for p.pos < len(p.src) && isBare(p.src[p.pos]) {
			p.pos++
		}
		if p.pos == start {
			return "", p.errorf("want a key")
		}
		k = p.src[start:p.pos]
	}
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		return "", p.errorf("dotted key %s.…: %w", k, errSubset)
	}
	return k, nil
}

// value reads one value; depth bounds nested inline tables.
func (p *tomlParser) value(depth int) (value, error) {
	if p.pos >= len(p.src) {
		return value{}, p.errorf("want a value")
	}
	switch c := p.src[p.pos]; {
	case c == '"' || c == '\'':
		s, err := p.str()
		return value{kind: 's', s: s}, err
	case c == '{':
		if depth > 0 {
			return value{}, p.errorf("nested inline table: %w", errSubset)
		}
		return p.inline()
	default:
		return p.number()
	}
}

// inline reads `{ key = value, … }` on one line.
func (p *tomlParser) inline() (value, error) {
	p.pos++ // {
	v := value{kind: 't'}
	p.skipSpace()
	if p.eat('}') {
		return v, nil
	}
	for {
		p.skipSpace()
		k, err := p.key()
		if err != nil {
			return value{}, err
		}
		p.skipSpace()
		if !p.eat('=') {
			return value{}, p.errorf("want = after key %q", k)
		}
		p.skipSpace()
		x, err := p.value(1)
		if err != nil {
			return value{}, err
		}
		v.table = append(v.table, pair{k, x})
		p.skipSpace()
		if p.eat('}') {
			return v, nil
		}
		if !p.eat(',') {
			return value{}, p.errorf("want , or } in an inline table")
		}
	}
}

// str reads a one-line basic ("…") or literal ('…') string. Multi-line
// strings are outside the subset.
func (p *tomlParser) str() (string, error) {
	q := p.src[p.pos]
	if strings.HasPrefix(p.src[p.pos:], strings.Repeat(string(q), 3)) {
		return "", p.errorf("multi-line string: %w", errSubset)
	}
	p.pos++
	var b strings.Builder
	for {
		if p.pos >= len(p.src) || p.src[p.pos] == '\n' {
			return "", p.errorf("unterminated string")
		}
		c := p.src[p.pos]
		p.pos++
		switch {
		case c == q:
			return b.String(), nil
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", p.errorf("control character in a string")
		case c == '\\' && q == '"':
			if p.pos >= len(p.src) {
				return "", p.errorf("unterminated string")
			}
			e := p.src[p.pos]
			p.pos++
			switch e {
			case '"', '\\':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			case 'u', 'U':
				n := 4
				if e == 'U' {
					n = 8
				}
				if p.pos+n > len(p.src) {
					return "", p.errorf("short \\%c escape", e)
				}
				r, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(r)) {
					return "", p.errorf("bad \\%c escape", e)
				}
				p.pos += n
				b.WriteRune(rune(r))
			default:
				return "", p.errorf("bad escape \\%c", e)
			}
		default:
			b.WriteByte(c)
		}
	}
}

// number reads a TOML integer or float (decimal only; inf and nan
// included, so that the range check can name them).
func (p *tomlParser) number() (value, error) {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if isBare(c) || c == '+' || c == '.' {
			p.pos++
			continue
		}
		break
	}
	tok := p.src[start:p.pos]
	if tok == "" {
		return value{}, p.errorf("want a value")
	}
	body := strings.TrimLeft(tok, "+-")
	if len(tok)-len(body) > 1 {
		return value{}, p.errorf("bad number %q", tok)
	}
	switch body {
	case "inf":
		sign := 1
		if tok[0] == '-' {
			sign = -1
		}
		return value{kind: 'f', f: math.Inf(sign)}, nil
	case "nan":
		return value{kind: 'f', f: math.NaN()}, nil
	}
	if !validDigits(body) {
		return value{}, p.errorf("bad number %q: %w", tok, errSubset)
	}
	plain := strings.ReplaceAll(tok, "_", "")
	if !strings.ContainsAny(body, ".eE") {
		if len(body) > 1 && body[0] == '0' {
			return value{}, p.errorf("bad number %q: leading zero", tok)
		}
		i, err := strconv.ParseInt(plain, 10, 64)
		if err != nil {
			return value{}, p.errorf("bad integer %q", tok)
		}
		return value{kind: 'i', i: i}, nil
	}
	f, err := strconv.ParseFloat(plain, 64)
	if err != nil {
		return value{}, p.errorf("bad float %q", tok)
	}
	return value{kind: 'f', f: f}, nil
}

// validDigits checks a TOML decimal number without its sign: digits with
// single underscores between digits, an optional fraction with digits on
// both sides of the point, an optional exponent.
func validDigits(s string) bool {
	mant, exp, hasExp := s, "", false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp, hasExp = s[:i], s[i+1:], true
	}
	intPart, frac, hasFrac := strings.Cut(mant, ".")
	if !digitRun(intPart) || hasFrac && !digitRun(frac) {
		return false
	}
	if len(intPart) > 1 && intPart[0] == '0' {
		return false
	}
	if hasExp {
		exp = strings.TrimPrefix(strings.TrimPrefix(exp, "+"), "-")
		if !digitRun(exp) {
			return false
		}
	}
	return true
}

// digitRun: one or more digits, an underscore only between two digits.
func digitRun(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			if i == 0 || i == len(s)-1 || s[i+1] == '_' {
				return false
			}
			continue
		}
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
