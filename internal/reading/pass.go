package reading

import (
	"errors"
	"hash/fnv"
	"io"
	"time"
)

// Mark is how far a resumable pass has read one file: the offset just
// past the last complete line it read, and a check of the bytes at the
// file's start and just before the offset, so that a file replaced or
// rewritten under the same name is told from one that only grew.
type Mark struct {
	Offset int64  `json:"offset"`
	Check  uint64 `json:"check,omitempty"`
}

// Pass reads files forwards from their marks, within one budget of bytes
// over all of them. It is the one way the program resumes reading a
// transcript it read before: the history the priced lines need, the
// search for a session's first act, and the spend fuse's tally each keep
// a Mark per file and read only what was appended since, in bounded
// slices, so that no call pays for a whole long transcript.
type Pass struct {
	// Limit bounds the bytes read over all the files of the pass; 0 is
	// no bound. The line that crosses it is the last one read.
	Limit int64
	// Deadline, when set, bounds the pass in time: checked at each read
	// of the file, so a line of any length, skipped or not, ends the pass
	// once it is past.
	Deadline time.Time
	read     int64
}

// ErrLate reports a pass ended by its Deadline.
var ErrLate = errors.New("the pass's deadline passed")

// Spent reports whether the pass has read its Limit or reached its
// Deadline.
func (p *Pass) Spent() bool {
	return p.Limit > 0 && p.read >= p.Limit || !p.Deadline.IsZero() && !time.Now().Before(p.Deadline)
}

// timed stops a read at a deadline.
type timed struct {
	r        io.Reader
	deadline time.Time
}

func (t timed) Read(b []byte) (int, error) {
	if !time.Now().Before(t.deadline) {
		return 0, ErrLate
	}
	return t.r.Read(b)
}

// Read reads the complete lines of the file at path from m on, calling
// line with each until it returns false, the file ends or the pass's
// budget is spent, and moves m past the last line read. A file shorter
// than m's offset, or whose checked bytes changed, was replaced or
// truncated: reset is called (to drop what the caller took from it), and
// the file is read from its start. A final line without its newline is
// left for a later pass, since Claude Code may still be writing it; a
// line longer than MaxLine is skipped, as every reader skips it. end
// reports that the file's end was reached; past the Deadline the error
// is ErrLate.
func (p *Pass) Read(path string, m *Mark, reset func(), line func([]byte) bool) (end bool, err error) {
	if p.Spent() {
		return false, nil
	}
	f, fi, err := Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if m.Offset != 0 && (fi.Size() < m.Offset || check(f, m.Offset) != m.Check) {
		reset()
		*m = Mark{}
	}
	if _, err := f.Seek(m.Offset, io.SeekStart); err != nil {
		return false, err
	}
	from := m.Offset
	var src io.Reader = f
	if !p.Deadline.IsZero() {
		src = timed{f, p.Deadline}
	}
	r := &Reader{r: src, off: from} // Offset counts from the file's start
	for p.Limit <= 0 || p.read+r.Offset()-from < p.Limit {
		l, rerr := r.Next()
		if rerr != nil {
			if end = errors.Is(rerr, io.EOF); !end {
				err = rerr
			}
			break
		}
		if !line(l) {
			break
		}
	}
	p.read += r.Offset() - from
	if r.Offset() != from {
		m.Offset, m.Check = r.Offset(), check(f, r.Offset())
	}
	return end, err
}

// checkSpan is how many bytes of the file's start, and of those just
// before the offset, a Mark's check covers.
const checkSpan = 256

// check hashes the bytes a Mark at off checks: a file rewritten under the
// same name differs in its first record (its ids and time) or in its
// last. Nothing is read at offset 0, whose check is 0.
func check(f io.ReaderAt, off int64) uint64 {
	if off <= 0 {
		return 0
	}
	buf := make([]byte, min(off, checkSpan))
	h := fnv.New64a()
	for _, at := range []int64{0, off - int64(len(buf))} {
		if _, err := f.ReadAt(buf, at); err != nil && err != io.EOF {
			return 0
		}
		h.Write(buf)
	}
	return h.Sum64()
}
