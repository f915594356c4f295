package lines

import (
	"bytes"
	"strconv"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/reading"
)

// The cache file starts with a one-line header that answers the common
// hook call, a hit with nothing to announce, without decoding any JSON:
//
//	H <reading> <warn tokens> <pause tokens> <compactions> <key, Go-quoted>
//
// then the Entry as JSON on the next line. Decoding the Decision with
// encoding/json was the dearest part of a hit in a fresh process: each
// type it meets for the first time costs reflection, allocations and page
// faults (about 0.2 ms and 16 faults for the Decision's types alone,
// measured). The header holds only what a silent call needs; a call that
// may announce reads the whole entry. A file without the header (written
// by an older build) is read the old way.
const hitTag = "H "

// header is the first line of a cache file for e.
func header(e *Entry) []byte {
	ls := e.Decision.Lines.Tokens()
	b := make([]byte, 0, 64+len(e.Key))
	b = append(b, hitTag...)
	b = strconv.AppendInt(b, e.Reading, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, ls.Warn, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, ls.Pause, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(e.Decision.Compactions), 10)
	b = append(b, ' ')
	b = strconv.AppendQuote(b, e.Key)
	return append(b, '\n')
}

// splitHeader separates the header line from what follows it (the
// status line, then the JSON); head is nil when the file has none.
func splitHeader(data []byte) (head, rest []byte) {
	if !bytes.HasPrefix(data, []byte(hitTag)) {
		return nil, data
	}
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return nil, nil
	}
	return data[:i], data[i+1:]
}

// entryJSON is the JSON of a cache file: past the header's lines. whole
// reports that the file has every header line this build writes (the
// hit, the status, the notice and the cold line); a file an older build
// wrote may lack the last ones.
func entryJSON(data []byte) (head, js []byte, whole bool) {
	head, js = splitHeader(data)
	if head == nil {
		return nil, js, false
	}
	for _, tag := range moreTags {
		i := bytes.IndexByte(js, '\n')
		if !bytes.HasPrefix(js, []byte(tag)) || i < 0 {
			return head, js, false
		}
		js = js[i+1:]
	}
	return head, js, true
}

// moreTags are the header lines after the hit line, in their order.
var moreTags = [...]string{statusTag, noticeTag, coldTag}

// parseHeader reads a header line; ok is false when it is malformed.
func parseHeader(head []byte) (reading int64, tokens climb.LineTokens, compactions int, key string, ok bool) {
	rest := string(head[len(hitTag):])
	var nums [4]int64
	for i := range nums {
		j := 0
		for j < len(rest) && rest[j] != ' ' {
			j++
		}
		if j == len(rest) {
			return 0, climb.LineTokens{}, 0, "", false
		}
		n, err := strconv.ParseInt(rest[:j], 10, 64)
		if err != nil || n < 0 {
			return 0, climb.LineTokens{}, 0, "", false
		}
		nums[i], rest = n, rest[j+1:]
	}
	key, err := strconv.Unquote(rest)
	if err != nil || nums[1] <= 0 || nums[2] <= 0 || nums[3] > 1<<20 {
		return 0, climb.LineTokens{}, 0, "", false
	}
	return nums[0], climb.LineTokens{Warn: nums[1], Pause: nums[2]}, int(nums[3]), key, true
}

// maxHeader bounds what a hit reads: the header is well under it (the key
// names a few paths); a longer first line is read the slow way.
const maxHeader = 4 << 10

// headerLines is a cache file's header as read for one Call.
type headerLines struct {
	at          int64 // the reading the entry was made at
	tokens      climb.LineTokens
	compactions int
	key         string
	// status, notice and cold are the S, N and C lines, without their
	// newline; nil when the file lacks them (an older build wrote it).
	status, notice, cold []byte
}

// readHeaderLines reads the header of call's cache into buf, in one small
// read. found is false when the file has no hit line (missing,
// unreadable, or written before the header existed); ok is false also
// when its hit line is malformed or was made under another Key.
func readHeaderLines(call *Call, buf []byte) (h headerLines, found, ok bool) {
	h, found, ok = readHeaderFile(FileName(call.Dir, call.ID), buf)
	if !ok || h.key != call.Key() {
		return h, found, false
	}
	return h, true, true
}

// readHeaderFile is readHeaderLines whatever the Key: ok is false when
// the file has no hit line or a malformed one.
func readHeaderFile(name string, buf []byte) (h headerLines, found, ok bool) {
	data, err := reading.ReadFile(name, reading.MaxCacheFile)
	if err != nil {
		return headerLines{}, false, false
	}
	n := copy(buf, data)
	head, rest := splitHeader(buf[:n])
	if head == nil {
		return headerLines{}, false, false
	}
	// Assigned field by field, not through pointers to them: a store
	// through a pointer would make buf escape, and every caller's 4 KB
	// buffer a heap allocation (and its pages faults) instead of stack.
	for i := range moreTags {
		j := bytes.IndexByte(rest, '\n')
		if j < 0 || !bytes.HasPrefix(rest, []byte(moreTags[i])) {
			break
		}
		line := rest[:j]
		rest = rest[j+1:]
		switch i {
		case 0:
			h.status = line
		case 1:
			h.notice = line
		case 2:
			h.cold = line
		}
	}
	if h.at, h.tokens, h.compactions, h.key, ok = parseHeader(head); !ok {
		return headerLines{status: h.status, notice: h.notice, cold: h.cold}, true, false
	}
	return h, true, true
}

// HeaderBuf holds the bytes of a cache's header while a Header refers to
// them: the caller's, so that a hit allocates nothing.
type HeaderBuf [maxHeader]byte

// A Header is a cache's header as Hit read it for one call.
type Header struct{ h headerLines }

// Hit reads call's cache header into buf and answers the call from it
// alone, when the cache was made under the Key call has now and still
// holds at call.Reading (see Fresh): the Header gives the lines in tokens
// and the session's compactions and, should a line fire, what the notice
// says (Notice), from the same bytes. ok is false otherwise, and the
// caller goes through DecideCached. It reads at most one small block of
// the file.
func Hit(call *Call, buf *HeaderBuf) (x Header, ok bool) {
	h, _, ok := readHeaderLines(call, buf[:])
	if !ok || !Fresh(h.at, call.Reading) {
		return Header{}, false
	}
	return Header{h}, true
}

// Lines is the lines in tokens.
func (x Header) Lines() climb.LineTokens { return x.h.tokens }

// Compactions is the session's compactions as the cache counted them.
func (x Header) Compactions() int { return x.h.compactions }
