package history

import (
	"errors"
	"io"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
)

// AddLine decodes one transcript line (without its newline) into the
// history and reports whether it held an own response. Lines without a
// filter word (user records, tool results, attachments) are skipped at
// the cost of a search.
func (h *History) AddLine(line []byte) bool {
	if !transcript.MayHoldHistory(line) {
		return false
	}
	resp := false
	transcript.Decode(line, func(r *transcript.Record) {
		if h.AddRecord(r, line) {
			resp = true
		}
	})
	return resp
}

// AddRecord takes one decoded record of line into the history, as Add
// does, and also notes the 1M window an api-request record's betas name
// (which the decoded record does not keep). It reports whether r was an
// own response.
func (h *History) AddRecord(r *transcript.Record, line []byte) bool {
	if transcript.Says1M(r, line) {
		h.Window1M = true
	}
	return h.Add(r)
}

// Feed reads whole lines from r, which must start at h.Offset of the
// transcript, and advances h.Offset past each one. A final line without
// its newline is left for the next call: Claude Code may still be
// writing it. Lines longer than reading.MaxLine are skipped, as the tail
// scan skips them.
func (h *History) Feed(r io.Reader) error {
	_, err := h.feed(reading.NewReaderAt(r, h.Offset), -1)
	return err
}

// feed reads lines from rd until its end, or until the offset has passed
// stop when stop ≥ 0, and reports whether it reached the end.
func (h *History) feed(rd *reading.Reader, stop int64) (done bool, err error) {
	for {
		if stop >= 0 && rd.Offset() >= stop {
			return false, nil
		}
		line, err := rd.Next()
		h.Offset = rd.Offset()
		if errors.Is(err, io.EOF) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		h.AddLine(line)
	}
}

// Update brings h up to date with the transcript at path, reading from
// h.Offset on. A file shorter than the offset was replaced or truncated:
// the pass starts over.
func (h *History) Update(path string) error {
	_, err := h.UpdateSome(path, -1)
	return err
}

// UpdateSome is Update reading at most about limit bytes of the
// transcript (limit < 0: no limit), so that no single call pays for a
// whole large file: the next call resumes from h.Offset. It reports
// whether the pass reached the end of the file.
func (h *History) UpdateSome(path string, limit int64) (caughtUp bool, err error) {
	f, fi, err := reading.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if fi.Size() < h.Offset {
		*h = History{}
	}
	if _, err := f.Seek(h.Offset, io.SeekStart); err != nil {
		return false, err
	}
	stop := int64(-1)
	if limit >= 0 {
		stop = h.Offset + limit
	}
	return h.feed(reading.NewReaderAt(f, h.Offset), stop)
}
