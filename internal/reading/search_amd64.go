//go:build !purego

package reading

import (
	"bytes"
	"math/bits"
)

// pairRun is pairRunGo with the pair tested 16 positions an instruction,
// in SSE2, which every amd64 processor has (pairBlocks): three times the
// speed of the integer arithmetic (BenchmarkContainsWord).
func pairRun(s, word []byte, p, stop int) (int, bool) {
	n := len(word)
	c1, c2 := word[n-2], word[n-1]
	for p <= stop {
		// The blocks pairBlocks tests, 64 positions each, start before
		// stop-31, so that they read no further than pairRunGo's rounds.
		off, m := pairBlocks(s[p+n-2:stop+n+31], c1, c2)
		p += off
		if m == 0 {
			return p, false
		}
		for ; m != 0; m &= m - 1 {
			q := p + bits.TrailingZeros64(m)
			if s[q] == word[0] && bytes.Equal(s[q:q+n], word) {
				return q, true
			}
		}
		p += 64
	}
	return p, false
}

// pairBlocks tests t in blocks of 64 positions from its start, while a
// block and the byte after it fit (off+65 <= len(t)). It returns the
// offset of the first block holding a position k where t[off+k] == c1 and
// t[off+k+1] == c2, with bit k of mask set for each such position; or,
// when no block holds one, the offset of the first block not tested and a
// zero mask.
//
//go:noescape
func pairBlocks(t []byte, c1, c2 byte) (off int, mask uint64)
