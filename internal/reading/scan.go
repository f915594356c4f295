package reading

import (
	"bytes"
	"io"
)

// scanner walks JSON text, from a reader through a window that slides
// over the input, or from bytes in memory. It checks the structure of what
// it passes (brackets, keys, colons, commas, literals, numbers, nesting
// depth) but finds only the closing quote of a string it skips: the
// characters and escapes inside it are checked only when a string is
// decoded. That keeps a multi-megabyte string one vectorised search.
type scanner struct {
	r    io.Reader
	buf  []byte
	i, n int // the unread window is buf[i:n]
	// keep, when not -1, is where the value being kept starts: a refill
	// keeps its bytes, up to keepMax of them; past that it lets them go
	// and sets long.
	keep, keepMax int
	long          bool
	err           error
	// mem says buf is the whole input, held by the caller: a kept value
	// may be handed out without a copy.
	mem bool
	// depth is the nesting of the containers the walk is inside.
	depth int
}

// windowSize is the read size. The window grows past it only to hold a
// kept value longer than it, up to the value's bound.
const windowSize = 32 << 10

// maxDepth is the deepest nesting accepted, as in encoding/json.
const maxDepth = 10000

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, windowSize), keep: -1}
}

// memScanner scans data, which it does not copy.
func memScanner(data []byte) *scanner {
	return &scanner{buf: data, n: len(data), err: io.EOF, keep: -1, mem: true}
}

// fill reads more input into the window and reports whether any came.
// The window is compacted only when it is full, so that reads of a few
// bytes at a time cost no copy each.
func (s *scanner) fill() bool {
	if s.err != nil {
		return false
	}
	if s.keep >= 0 && s.n-s.keep > s.keepMax {
		s.keep, s.long = -1, true
	}
	if s.n == len(s.buf) {
		from := s.i
		if s.keep >= 0 {
			from, s.keep = s.keep, 0
		}
		copy(s.buf, s.buf[from:s.n])
		s.n -= from
		s.i -= from
		if s.n == len(s.buf) {
			s.buf = append(s.buf, make([]byte, len(s.buf))...)
		}
	}
	for {
		m, err := s.r.Read(s.buf[s.n:])
		s.n += m
		if err != nil {
			s.err = err
		}
		if m > 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// peek returns the next byte without consuming it.
func (s *scanner) peek() (byte, bool) {
	if s.i >= s.n && !s.fill() {
		return 0, false
	}
	return s.buf[s.i], true
}

func (s *scanner) space() {
	for {
		c, ok := s.peek()
		if !ok {
			return
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) byte(c byte) bool {
	if d, ok := s.peek(); ok && d == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only white space is left, to the end of the input,
// and the input was read without error.
func (s *scanner) end() bool {
	s.space()
	if _, ok := s.peek(); ok {
		return false
	}
	return s.err == io.EOF
}

// kept runs read, which consumes one value, and returns the value's bytes,
// valid until the next call. A value longer than max bytes is not held:
// it is read through the window and reported long.
func (s *scanner) kept(max int, read func() bool) (raw []byte, ok, long bool) {
	if _, ok := s.peek(); !ok {
		return nil, false, false
	}
	s.keep, s.keepMax, s.long = s.i, max, false
	defer func() { s.keep = -1 }()
	if !read() {
		return nil, false, false
	}
	if s.long || s.i-s.keep > max {
		return nil, true, true
	}
	return s.buf[s.keep:s.i], true, false
}

// skip skips a string, from its opening quote to its closing one: the
// first quote after it that an even number of backslashes precedes. run
// carries the backslashes that end the bytes already passed, which a
// window's edge may split from their quote.
func (s *scanner) skip() bool {
	if !s.byte('"') {
		return false
	}
	run := 0
	for {
		if s.i >= s.n && !s.fill() {
			return false
		}
		seg := s.buf[s.i:s.n]
		j := bytes.IndexByte(seg, '"')
		if j < 0 {
			run = trailingBackslashes(seg, run)
			s.i = s.n
			continue
		}
		escaped := trailingBackslashes(seg[:j], run)%2 == 1
		s.i += j + 1
		if !escaped {
			return true
		}
		run = 0
	}
}

// trailingBackslashes is the number of backslashes that end b, plus run
// (those before b) when b is all backslashes.
func trailingBackslashes(b []byte, run int) int {
	k := len(b)
	for k > 0 && b[k-1] == '\\' {
		k--
	}
	if k == 0 {
		return run + len(b)
	}
	return len(b) - k
}

// value skips one JSON value of any kind, checking its structure.
func (s *scanner) value() bool {
	s.space()
	c, ok := s.peek()
	switch {
	case !ok:
		return false
	case c == '{':
		return s.container('}')
	case c == '[':
		return s.container(']')
	case c == '"':
		return s.skip()
	}
	return s.scalar()
}

// container skips an object or an array, from its opening bracket to
// end, its closing one.
func (s *scanner) container(end byte) bool {
	if s.depth >= maxDepth {
		return false
	}
	s.i++
	s.depth++
	ok := s.items(end)
	s.depth--
	return ok
}

// items skips a container's members or elements and its closing bracket.
func (s *scanner) items(end byte) bool {
	s.space()
	if s.byte(end) {
		return true
	}
	for {
		if end == '}' && !s.key() {
			return false
		}
		if !s.value() {
			return false
		}
		s.space()
		if s.byte(end) {
			return true
		}
		if !s.byte(',') {
			return false
		}
	}
}

// key skips an object's key and its colon.
func (s *scanner) key() bool {
	s.space()
	if !s.skip() {
		return false
	}
	s.space()
	return s.byte(':')
}

// scalar skips a literal (true, false, null) or a number.
func (s *scanner) scalar() bool {
	c, _ := s.peek()
	switch c {
	case 't':
		return s.word("true")
	case 'f':
		return s.word("false")
	case 'n':
		return s.word("null")
	}
	return s.number()
}

func (s *scanner) word(w string) bool {
	for i := 0; i < len(w); i++ {
		if !s.byte(w[i]) {
			return false
		}
	}
	return true
}

// number skips a number as JSON writes one: an optional minus, an integer
// without leading zeros, an optional fraction and exponent.
func (s *scanner) number() bool {
	s.byte('-')
	if !s.byte('0') && !s.digits() {
		return false
	}
	if s.byte('.') && !s.digits() {
		return false
	}
	if s.byte('e') || s.byte('E') {
		if !s.byte('+') {
			s.byte('-')
		}
		return s.digits()
	}
	return true
}

// digits skips one or more decimal digits.
func (s *scanner) digits() bool {
	n := 0
	for {
		c, ok := s.peek()
		if !ok || c < '0' || c > '9' {
			return n > 0
		}
		s.i++
		n++
	}
}

// oneValue reports whether data holds one JSON value and white space.
func oneValue(data []byte) bool {
	s := memScanner(data)
	s.space()
	return s.value() && s.end()
}
