package reading

import "bytes"

// closingQuote returns the index in seg of the quote that ends a JSON
// string whose bytes go on at seg[0], with run backslashes just before
// seg[0]; or -1 when seg holds none, and then the backslashes that end
// seg (run included when seg is all backslashes), to carry to the next
// window. A quote ends the string when an even number of backslashes
// precedes it.
//
// Inside a string most quotes are escaped, \" after a letter, and in a
// tool result of test logs or source code they come every few dozen
// bytes. Stopping at each for an IndexByte call and a count of the
// backslashes before it (closingQuoteGo) made a 1 MB tool_response the
// larger part of the hook call. On amd64 (quote_amd64.go) the bytes are
// tested 16 at a time for the quotes that may end the string: those after
// a byte that is not a backslash (always an end), or after two
// backslashes (an end when the run before them is even); a quote after
// one backslash after anything else is escaped, and passed over in the
// vector registers. Both versions give the same answer for any bytes
// (FuzzClosingQuote).
func closingQuote(seg []byte, run int) (int, int) { return closingQuoteFast(seg, run) }

// closingQuoteGo is closingQuote by jumping from quote to quote with the
// vectorised IndexByte.
func closingQuoteGo(seg []byte, run int) (int, int) {
	off := 0
	for {
		j := bytes.IndexByte(seg[off:], '"')
		if j < 0 {
			return -1, trailingBackslashes(seg[off:], run)
		}
		if trailingBackslashes(seg[off:off+j], run)%2 == 0 {
			return off + j, 0
		}
		off += j + 1 // an escaped quote
		run = 0
	}
}
