package reading

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// Field names one value to take out of a JSON object, and where it goes.
type Field struct {
	// Path is the keys from the object down to the value, joined by dots:
	// "message.usage.input_tokens". Keys match exactly, as in JSON.parse.
	Path string
	// To is where the value goes: a *string, *int64, *float64, *bool or
	// *[]string (an array of strings only) takes a value of its type; a *[]byte takes the value's
	// JSON text, whatever it is (a sub-slice of the input when it is in
	// memory, else a copy); nil takes an object. A path that others go
	// through takes nil.
	To any
	// Max bounds the value's JSON text in bytes (quotes and escapes
	// counted); zero means 16 KiB. A longer value is never held: it fails
	// the decode, unless Lax.
	Max int
	// Lax makes a value past Max read as absent (Got says Long).
	Lax bool
	// Strict makes a value of another type fail the decode (with
	// ErrMismatch), rather than read as absent.
	Strict bool
	// Got, when set, receives what the path held.
	Got *Got
}

// max is f's bound.
func (f *Field) max() int {
	if f.Max <= 0 {
		return maxField
	}
	return f.Max
}

// Got is what a Field's path held.
type Got uint8

// What a path can hold.
const (
	// Absent: no such key.
	Absent Got = iota
	// Null: null, which reads as absent.
	Null
	// Found: a value of the destination's type, now in it.
	Found
	// Other: a value of another type, or a number the destination cannot
	// hold (a fraction for an *int64, one out of range); it reads as
	// absent.
	Other
	// Long: a value past the field's Max, never held; it reads as absent
	// (and fails the decode unless the field is Lax).
	Long
)

// The errors of a decode. A text that is not one JSON object is
// ErrSyntax, whatever else is wrong with it.
var (
	// ErrSyntax reports a text that is not one JSON object. Inside the
	// strings a decode skips it is lenient (see scanner).
	ErrSyntax = errors.New("not one JSON object")
	// ErrMismatch reports a Strict field holding a value of another type.
	ErrMismatch = errors.New("a value of another type")
	// ErrLong reports a value past its field's Max.
	ErrLong = errors.New("a value past its bound")
)

// Pick takes the values its Fields name out of one JSON object, in one
// pass: it descends only into the objects a path goes through and skips
// every other value without decoding or holding it. It reads as
// JSON.parse followed by the paths would: the last occurrence of a key
// wins (an object read again replaces what was read of it), and a value
// of another type reads as absent unless the field is Strict.
//
// A Pick is made for one set of destinations and may decode any number of
// texts into them, one at a time; each decode starts by setting every
// destination to its zero value and every Got to Absent.
type Pick struct {
	fields []Field
	// nodes are the keys of the paths, the object itself first; order
	// lists the fields so that those at or below any node are a run.
	nodes []node
	order []int
	err   error // a Strict or bound failure of the decode under way
}

// node is one key of the paths: the field that ends there (-1 for none),
// its first key below and its next sibling (0 for none: the object
// itself is no one's), and the run of order at or below it, which an
// occurrence of the key resets.
type node struct {
	key       string
	field     int
	kid, next int
	lo, hi    int
}

// NewPick makes a Pick for fields, which it keeps: they must not change
// after. A path named twice, or one that takes a destination while others
// go through it, is a programming error: it panics.
func NewPick(fields ...Field) *Pick {
	p := &Pick{fields: fields}
	n := 1
	for _, f := range fields {
		n += strings.Count(f.Path, ".") + 1
	}
	p.nodes = make([]node, 1, n)
	p.nodes[0].field = -1
	for i := range p.fields {
		f := &p.fields[i]
		at := 0
		for k := range strings.SplitSeq(f.Path, ".") {
			at = p.kid(at, k)
		}
		if p.nodes[at].field >= 0 {
			panic("reading: path named twice: " + f.Path)
		}
		p.nodes[at].field = i
	}
	p.order = make([]int, 0, len(fields))
	p.number(0)
	return p
}

// kid returns the node for key k below node at, made if need be.
func (p *Pick) kid(at int, k string) int {
	last := 0
	for c := p.nodes[at].kid; c != 0; c = p.nodes[c].next {
		if p.nodes[c].key == k {
			return c
		}
		last = c
	}
	p.nodes = append(p.nodes, node{key: k, field: -1})
	c := len(p.nodes) - 1
	if last == 0 {
		p.nodes[at].kid = c
	} else {
		p.nodes[last].next = c
	}
	return c
}

// number lists the fields at and below node at in order, depth first.
func (p *Pick) number(at int) {
	n := &p.nodes[at]
	n.lo = len(p.order)
	if n.field >= 0 {
		if n.kid != 0 && p.fields[n.field].To != nil {
			panic("reading: a path others go through takes no destination: " + p.fields[n.field].Path)
		}
		p.order = append(p.order, n.field)
	}
	for c := n.kid; c != 0; c = p.nodes[c].next {
		p.number(c)
	}
	p.nodes[at].hi = len(p.order)
}

// Decode decodes data, which must hold one JSON object and nothing after
// it but white space.
func (p *Pick) Decode(data []byte) error { return p.whole(memScanner(data)) }

// Stream is Decode for the text r holds, read to its end through a
// window of a few tens of kilobytes: memory does not grow with the text,
// only with the values kept (each within its Max).
func (p *Pick) Stream(r io.Reader) error { return p.whole(newScanner(r)) }

// whole decodes the one JSON object s holds.
func (p *Pick) whole(s *scanner) error {
	if err := p.decode(s); err != nil {
		return err
	}
	if !s.end() {
		return ErrSyntax
	}
	return p.err
}

// prefix decodes the one JSON object data starts with, whatever follows
// it, and returns the bytes it took.
func (p *Pick) prefix(data []byte) (int, error) {
	s := memScanner(data)
	if err := p.decode(s); err != nil {
		return 0, err
	}
	return s.i, p.err
}

func (p *Pick) decode(s *scanner) error {
	p.err = nil
	p.reset(0)
	s.space()
	if c, ok := s.peek(); !ok || c != '{' || !p.object(s, 0) {
		return ErrSyntax
	}
	return nil
}

// reset clears the destinations at and below node at.
func (p *Pick) reset(at int) {
	n := &p.nodes[at]
	for _, i := range p.order[n.lo:n.hi] {
		f := &p.fields[i]
		if f.Got != nil {
			*f.Got = Absent
		}
		switch to := f.To.(type) {
		case *string:
			*to = ""
		case *int64:
			*to = 0
		case *float64:
			*to = 0
		case *bool:
			*to = false
		case *[]string:
			*to = nil
		case *[]byte:
			*to = nil
		}
	}
}

// object walks an object from its opening brace, at being its node.
func (p *Pick) object(s *scanner, at int) bool {
	if s.depth >= maxDepth {
		return false
	}
	s.i++
	s.depth++
	ok := p.members(s, at)
	s.depth--
	return ok
}

func (p *Pick) members(s *scanner, at int) bool {
	s.space()
	if s.byte('}') {
		return true
	}
	for {
		s.space()
		raw, ok, long := s.kept(maxKey, s.skip)
		if !ok {
			return false
		}
		kid := 0
		if !long {
			key := raw[1 : len(raw)-1]
			if plain, valid := plainString(key); !valid {
				return false
			} else if !plain {
				k, ok := unquote(raw)
				if !ok {
					return false
				}
				key = []byte(k)
			}
			for c := p.nodes[at].kid; c != 0; c = p.nodes[c].next {
				if string(key) == p.nodes[c].key {
					kid = c
					break
				}
			}
		}
		s.space()
		if !s.byte(':') {
			return false
		}
		s.space()
		if kid == 0 {
			ok = s.value()
		} else {
			ok = p.read(s, kid)
		}
		if !ok {
			return false
		}
		s.space()
		if s.byte(',') {
			continue
		}
		return s.byte('}')
	}
}

// maxKey bounds a key the walk decodes: a longer one cannot spell a path.
const maxKey = 256

// read reads the value at node at into its destinations.
func (p *Pick) read(s *scanner, at int) bool {
	p.reset(at)
	n := &p.nodes[at]
	c, ok := s.peek()
	if !ok {
		return false
	}
	var f *Field
	if n.field >= 0 {
		f = &p.fields[n.field]
	}
	if c == 'n' {
		p.got(f, Null)
		return s.word("null")
	}
	if f == nil || f.To == nil {
		if c != '{' {
			p.got(f, Other)
			return s.value()
		}
		p.got(f, Found)
		if n.kid == 0 {
			return s.value()
		}
		return p.object(s, at)
	}
	switch to := f.To.(type) {
	case *string:
		if c != '"' {
			break
		}
		raw, ok, long := s.kept(f.max(), s.skip)
		if !ok || long {
			return ok && p.long(f)
		}
		v, ok := unquote(raw)
		*to = v
		return ok && p.got(f, Found)
	case *int64, *float64:
		if c != '-' && (c < '0' || c > '9') {
			break
		}
		raw, ok, long := s.kept(f.max(), s.number)
		if !ok || long {
			return ok && p.long(f)
		}
		var err error
		if i, isInt := to.(*int64); isInt {
			*i, err = strconv.ParseInt(string(raw), 10, 64)
		} else {
			*to.(*float64), err = strconv.ParseFloat(string(raw), 64)
		}
		if err != nil {
			p.reset(at)
			return p.got(f, Other)
		}
		return p.got(f, Found)
	case *bool:
		if c == 't' || c == 'f' {
			*to = c == 't'
			return s.scalar() && p.got(f, Found)
		}
	case *[]byte:
		raw, ok, long := s.kept(f.max(), s.value)
		if !ok || long {
			return ok && p.long(f)
		}
		if !s.mem {
			raw = append([]byte(nil), raw...)
		}
		*to = raw
		return p.got(f, Found)
	case *[]string:
		if c != '[' {
			break
		}
		raw, ok, long := s.kept(f.max(), s.value)
		if !ok || long {
			return ok && p.long(f)
		}
		vs, g, ok := stringsOf(raw)
		if g == Found {
			*to = vs
		}
		return ok && p.got(f, g)
	default:
		panic("reading: a destination of an unknown type for " + f.Path)
	}
	p.got(f, Other)
	return s.value()
}

// stringsOf decodes an array's JSON text, already checked, as strings:
// Other when it holds anything else; false when a string does not
// decode.
func stringsOf(raw []byte) ([]string, Got, bool) {
	vs := []string{}
	a := memScanner(raw)
	a.i++
	for {
		a.space()
		if a.byte(']') {
			return vs, Found, true
		}
		a.byte(',')
		a.space()
		if c, _ := a.peek(); c != '"' {
			return nil, Other, true
		}
		start := a.i
		a.skip()
		v, ok := unquote(raw[start:a.i])
		if !ok {
			return nil, Other, false
		}
		vs = append(vs, v)
	}
}

// got records what f's path held (f may be nil: a path others go
// through, with no field of its own). It returns true, for the callers'
// convenience.
func (p *Pick) got(f *Field, g Got) bool {
	if f == nil {
		return true
	}
	if f.Got != nil {
		*f.Got = g
	}
	if g == Other && f.Strict && p.err == nil {
		p.err = ErrMismatch
	}
	return true
}

// long records a value past f's bound.
func (p *Pick) long(f *Field) bool {
	if !f.Lax && p.err == nil {
		p.err = ErrLong
	}
	return p.got(f, Long)
}

// plainString reports whether the inside of a JSON string (between its
// quotes) needs no decoding: no escape and nothing but ASCII. valid is
// false when it holds a raw control character, which JSON forbids.
func plainString(b []byte) (plain, valid bool) {
	plain = true
	for _, c := range b {
		switch {
		case c < 0x20:
			return false, false
		case c == '\\' || c >= 0x80:
			plain = false
		}
	}
	return plain, true
}

// unquote decodes a JSON string, quotes included, as encoding/json does:
// false for a raw control character or a bad escape; a byte that is not
// UTF-8, or an unpaired surrogate, becomes U+FFFD. A plain string, the
// common case, is only copied.
func unquote(raw []byte) (string, bool) {
	b := raw[1 : len(raw)-1]
	if plain, valid := plainString(b); plain || !valid {
		return string(b), valid
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}
