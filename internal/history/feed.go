package history

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/muthur/context-budget/internal/transcript"
)

// MaxLine bounds the lines the pass decodes. Longer lines are skipped
// unread: tool results are that long, the records the history needs
// hardly ever are (a response that writes a huge file is; missing it only
// delays its figures to the next response). It also bounds the pass's
// buffer to 2 MiB, within the hook's 16 MiB memory budget.
const MaxLine = 1 << 20

// Words a line must hold to be worth decoding; everything else (user
// records, tool results, attachments) is skipped at the cost of a search.
var (
	assistantWord  = []byte(`"assistant"`)
	boundaryWord   = []byte(`_boundary"`)
	apiRequestWord = []byte(`"api-request"`)
	beta1MWord     = []byte(`"context-1m-`)
)

// AddLine decodes one transcript line (without its newline) into the
// history and reports whether it held an own response.
func (h *History) AddLine(line []byte) bool {
	isAPI := bytes.Contains(line, apiRequestWord)
	if !isAPI && !bytes.Contains(line, assistantWord) && !bytes.Contains(line, boundaryWord) {
		return false
	}
	resp := false
	transcript.Decode(line, func(r *transcript.Record) {
		if r.Type == "api-request" && bytes.Contains(line, beta1MWord) {
			h.Window1M = true
		}
		if h.Add(r) {
			resp = true
		}
	})
	return resp
}

// Feed reads whole lines from r, which must start at h.Offset of the
// transcript, and advances h.Offset past each one. A final line without
// its newline is left for the next call: Claude Code may still be
// writing it.
func (h *History) Feed(r io.Reader) error {
	buf := make([]byte, 0, 256<<10)
	var skipped int64 // bytes of an over-long line passed so far; -1: none
	skipped = -1
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		start := 0
		for {
			i := bytes.IndexByte(buf[start:], '\n')
			if i < 0 {
				break
			}
			if skipped >= 0 {
				h.Offset += skipped + int64(i) + 1
				skipped = -1
			} else {
				h.AddLine(buf[start : start+i])
				h.Offset += int64(i) + 1
			}
			start += i + 1
		}
		rest := buf[start:]
		switch {
		case skipped >= 0:
			skipped += int64(len(rest))
			rest = nil
		case len(rest) > MaxLine:
			skipped = int64(len(rest))
			rest = nil
		}
		buf = buf[:copy(buf, rest)]
		if len(buf) == cap(buf) {
			nb := make([]byte, len(buf), 2*cap(buf))
			copy(nb, buf)
			buf = nb
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Update brings h up to date with the transcript at path, reading from
// h.Offset on. A file shorter than the offset was replaced or truncated:
// the pass starts over.
func (h *History) Update(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() < h.Offset {
		*h = History{}
	}
	if _, err := f.Seek(h.Offset, io.SeekStart); err != nil {
		return err
	}
	return h.Feed(f)
}
