//go:build !purego

package reading

import (
	"bytes"
	"math/bits"
)

// closingQuoteFast is closingQuote testing 64 positions a round in SSE2
// (quoteBlocks), from the first quote; the first two positions, whose
// tests would look before seg, and the last few, which a round cannot
// hold, go to closingQuoteGo.
func closingQuoteFast(seg []byte, run int) (int, int) {
	const lead = 2
	if len(seg) < lead+66 {
		return closingQuoteGo(seg, run)
	}
	if j, _ := closingQuoteGo(seg[:lead], run); j >= 0 {
		return j, 0
	}
	// The vectorised IndexByte is faster still across text without
	// quotes: the rounds start at the first quote.
	first := bytes.IndexByte(seg[lead:], '"')
	if first < 0 {
		return -1, trailingBackslashes(seg, run)
	}
	p := lead + first // the positions before p hold no end
	for {
		off, m := quoteBlocks(seg[p-lead:])
		p += off
		if m == 0 {
			break // p is the first position not tested
		}
		for ; m != 0; m &= m - 1 {
			q := p + bits.TrailingZeros64(m)
			if seg[q-1] != '\\' || trailingBackslashes(seg[:q], run)%2 == 0 {
				return q, 0
			}
		}
		p += 64
	}
	// The rest, shorter than a round; the backslashes just before p carry
	// into it.
	j, r := closingQuoteGo(seg[p:], trailingBackslashes(seg[:p], run))
	if j < 0 {
		return -1, r
	}
	return p + j, 0
}

// quoteBlocks tests t in rounds of 64 positions from t[2], while a round
// and the two bytes before it fit (off+66 <= len(t)). Position k of a
// round at off is t[off+2+k]; it is set in the mask when that byte is a
// quote that may end a string: t[off+1+k] is not a backslash, or
// t[off+k] is one too. It returns the offset of the first round with a
// position set, and its mask; or, when no round has one, the offset of
// the first round not tested and a zero mask.
//
//go:noescape
func quoteBlocks(t []byte) (off int, mask uint64)
