package replay

import (
	"io"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
)

// eachLine calls fn with every line of r worth decoding, without its
// newline: the lines the history's pass decodes and the operator prompts
// the session's own orientation ends at (transcript's filter words), read through the one forward reader, so that a line longer
// than reading.MaxLine is skipped here as the hook skips it, and never
// held whole. A past session's file is complete: its last line counts
// without its newline. fn must not keep line. count is told the bytes
// read.
func eachLine(r io.Reader, rd *reading.Reader, count func(int), fn func(line []byte)) error {
	rd.Reset(r, 0)
	rd.Final = true
	var done int64
	for {
		line, err := rd.Next()
		count(int(rd.Offset() - done))
		done = rd.Offset()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if len(line) > 0 && (transcript.MayHoldHistory(line) || transcript.MayHoldPrompt(line)) {
			fn(line)
		}
	}
}
