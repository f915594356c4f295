package reading

import "io"

// scanner walks JSON text from a reader just far enough to find value
// boundaries, through a window of a few KB that slides over the input. It
// accepts a superset of JSON inside skipped values (it does not check
// numbers or literals letter by letter); the fields it keeps are decoded
// by encoding/json.
type scanner struct {
	r    io.Reader
	buf  []byte
	i, n int // the unread window is buf[i:n]
	// keep, when not -1, is where the bytes of a string being kept start:
	// a refill must not drop them.
	keep int
	err  error
	// full: the last read filled the window, so the input is large.
	full bool
}

// windowSize is the read size. The window grows only to hold a kept
// string (a key or a field value) longer than it, which no real payload
// has; the hook bounds its input anyway. It starts at firstWindow: most
// payloads are a few hundred bytes, and in a fresh process every page of
// a buffer is a page fault, paid whether the read fills it or not. A
// read that fills the first window moves to the full size.
const (
	windowSize  = 32 << 10
	firstWindow = 4 << 10
)

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, firstWindow), keep: -1}
}

// fill reads more input into the window and reports whether any came.
func (s *scanner) fill() bool {
	if s.err != nil {
		return false
	}
	from := s.i
	if s.keep >= 0 {
		from = s.keep
		s.keep = 0
	}
	copy(s.buf, s.buf[from:s.n])
	s.n -= from
	s.i -= from
	if s.n == len(s.buf) || len(s.buf) < windowSize && s.full {
		s.buf = append(s.buf, make([]byte, max(len(s.buf), windowSize-len(s.buf)))...)
	}
	for {
		m, err := s.r.Read(s.buf[s.n:])
		s.full = s.n+m == len(s.buf)
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

// skip skips a string.
func (s *scanner) skip() bool {
	_, ok, _ := s.string(0)
	return ok
}

// quoted reads a string and returns it with its quotes, valid until the
// next call. A string longer than max bytes (quotes and escapes counted)
// is skipped instead, through the window, and reported long: the window
// never grows past max for a kept string.
func (s *scanner) quoted(max int) (raw []byte, ok, long bool) { return s.string(max) }

// string skips a string from its opening quote to its closing one: the
// first quote after it that an even number of backslashes precedes
// (closingQuote, which passes over escaped quotes without stopping). run
// carries the backslashes that end the bytes already passed, which a
// window's edge may split from their quote. With max > 0 the string is
// kept, up to max bytes: past that it is only skipped and reported long.
func (s *scanner) string(max int) (raw []byte, ok, long bool) {
	if !s.byte('"') {
		return nil, false, false
	}
	start := s.i - 1
	keep := max > 0
	if keep {
		s.keep = start
		defer func() { s.keep = -1 }()
	}
	run := 0 // backslashes just before s.i
	for {
		if keep && s.i-start > max {
			// Too long to be a field this program keeps: drop what is
			// held and skip the rest like any other value.
			keep, long = false, true
			s.keep = -1
		}
		if s.i >= s.n {
			if !s.fill() {
				return nil, false, false
			}
			if keep {
				start = s.keep
			}
		}
		j, r := closingQuote(s.buf[s.i:s.n], run)
		if j < 0 {
			run = r
			s.i = s.n
			continue
		}
		s.i += j + 1
		if keep && s.i-start > max {
			return nil, true, true
		}
		if keep {
			return s.buf[start:s.i], true, false
		}
		return nil, true, long
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

// raw reads one value and returns its bytes, valid until the next call.
func (s *scanner) raw() ([]byte, bool) {
	if _, ok := s.peek(); !ok {
		return nil, false
	}
	s.keep = s.i
	defer func() { s.keep = -1 }()
	if !s.value() {
		return nil, false
	}
	return s.buf[s.keep:s.i], true
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

// literal reads a number or a literal (true, false, null) and returns its
// bytes, valid until the next call; false, consuming nothing, when the
// next value is a string, an object or an array.
func (s *scanner) literal() ([]byte, bool) {
	c, ok := s.peek()
	if !ok || c == '"' || c == '{' || c == '[' {
		return nil, false
	}
	s.keep = s.i
	defer func() { s.keep = -1 }()
	if !s.value() {
		return nil, false
	}
	return s.buf[s.keep:s.i], true
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
