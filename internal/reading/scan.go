package reading

import (
	"bytes"
	"io"
)

// scanner walks JSON text from a reader just far enough to find value
// boundaries, through a window that slides over the input. It accepts a
// superset of JSON inside skipped values (it does not check numbers or
// literals letter by letter); the values it keeps are decoded by
// encoding/json.
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
}

// windowSize is the read size. The window grows past it only to hold a
// kept value longer than it, up to the value's bound.
const windowSize = 32 << 10

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, windowSize), keep: -1}
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
func (s *scanner) end() error {
	s.space()
	if _, ok := s.peek(); ok {
		return ErrPayload
	}
	if s.err != io.EOF {
		return ErrPayload
	}
	return nil
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

func (s *scanner) value() bool {
	c, ok := s.peek()
	if !ok {
		return false
	}
	switch c {
	case '"':
		return s.skip()
	case '{', '[':
		return s.container()
	default:
		n := 0
		for {
			c, ok := s.peek()
			if !ok {
				return n > 0
			}
			switch c {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return n > 0
			case '"', '{', '[', ':':
				return false
			}
			s.i++
			n++
		}
	}
}

// container skips an object or array, tracking nesting and strings only.
func (s *scanner) container() bool {
	var stack []byte
	for {
		c, ok := s.peek()
		if !ok {
			return false
		}
		switch c {
		case '"':
			if !s.skip() {
				return false
			}
			continue
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return false
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				s.i++
				return true
			}
		}
		s.i++
	}
}
