package replay

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/muthur/context-budget/internal/reading"
)

// bufSize is the read buffer of one file: lines up to it cost no copy.
const bufSize = 256 << 10

// needles pick the lines worth decoding: an assistant record (the word
// the hook's own tail scan looks for), a compaction boundary, an API
// request (window evidence) — the words the history's pass looks for.
// Everything else, user tool results above all, is skipped by this byte
// test alone.
var needles = [][]byte{[]byte(`"assistant"`), []byte(`_boundary"`), []byte(`"api-request"`)}

// wanted reports whether a line may hold a record the walk needs.
func wanted(line []byte) bool {
	for _, n := range needles {
		if bytes.Contains(line, n) {
			return true
		}
	}
	return userPrompt(line)
}

// The cold-cache count needs the user's prompts (a prompt is what the
// stop holds back), not the tool results, which are most of the bytes:
// Claude Code writes a record's type and its tool_result block within
// its first kilobytes, so looking there alone keeps the skip cheap.
var (
	userType   = []byte(`"type":"user"`)
	toolResult = []byte(`"tool_result"`)
)

const (
	userTypeWithin   = 256
	toolResultWithin = 4 << 10
)

// userPrompt reports whether a line looks like a user record that is not
// a tool result.
func userPrompt(line []byte) bool {
	if !bytes.Contains(line[:min(len(line), userTypeWithin)], userType) {
		return false
	}
	return !bytes.Contains(line[:min(len(line), toolResultWithin)], toolResult)
}

// eachLine calls fn with every line of r worth decoding, without its
// newline. A line longer than reading.MaxLine is skipped, as the hook's
// tail scan skips it, and is never held whole: memory stays within the
// buffer plus MaxLine. fn must not keep line. count is told the bytes read.
func eachLine(r io.Reader, buf *bufio.Reader, long *[]byte, count func(int), fn func(line []byte)) error {
	buf.Reset(r)
	acc := (*long)[:0]
	defer func() { *long = acc[:0] }()
	accumulating, skipping := false, false
	for {
		chunk, err := buf.ReadSlice('\n')
		count(len(chunk))
		if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			// Part of a long line: hold it unless it is already too long.
			if !skipping {
				if len(acc)+len(chunk) > reading.MaxLine {
					skipping, acc = true, acc[:0]
				} else {
					acc = append(acc, chunk...)
					accumulating = true
				}
			}
			continue
		}
		line := chunk
		switch {
		case skipping:
			line = nil
		case accumulating:
			if len(acc)+len(chunk) > reading.MaxLine {
				line = nil
			} else {
				acc = append(acc, chunk...)
				line = acc
			}
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		if len(line) > 0 && wanted(line) {
			fn(line)
		}
		accumulating, skipping, acc = false, false, acc[:0]
		if err == io.EOF {
			return nil
		}
	}
}
