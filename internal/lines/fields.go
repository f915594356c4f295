package lines

import (
	"unicode"
	"unicode/utf8"
)

// maxFields is the most fields a header line has (the S line: 4 and two
// models of 8), and one more, to tell a longer line.
const maxFields = 4 + 16 + 1

// fields is bytes.Fields for a header line, returned in an array: n is the
// count of fields, up to maxFields (a line with more is cut there, which
// every caller takes for malformed). The fields are slices of line in an
// array the caller keeps, so that the header's buffer stays on the
// caller's stack, where bytes.Fields' slice would make it escape to the
// heap. FuzzFields holds it to bytes.Fields.
func fields(line []byte) (f [maxFields][]byte, n int) {
	start := -1 // the current field's start, -1 between fields
	for i := 0; i < len(line); {
		r, size := rune(line[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(line[i:])
		}
		if unicode.IsSpace(r) {
			if start >= 0 {
				f[n], n, start = line[start:i], n+1, -1
				if n == maxFields {
					return f, n
				}
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		f[n], n = line[start:], n+1
	}
	return f, n
}
