package reading

import (
	"bytes"
	"math/bits"
)

// containsWord is bytes.Contains(s, word), fast on the text the tail scan
// searches for its filter word: JSON-escaped tool results, megabytes long,
// with a quote every few dozen bytes.
//
// bytes.Index anchors on the word's first byte, the quote: in escaped text
// it stops at every \" for one IndexByte call and a compare, which made
// that search most of the cost of streaming past a 3 MB tool result.
// containsWord anchors on the word's last two bytes instead: for the
// filter words, a letter and a closing quote. Inside a JSON string every
// quote follows a backslash, so that pair occurs only where a string ends,
// which in a long line is rare. It tests the pair at every position (the
// "packed pair" search): on amd64 sixteen positions an SSE2 instruction
// (pairRun), elsewhere eight at a time in the bits of two overlapping
// 64-bit loads (pairRunGo). While the quotes are sparse it leaves the
// skipping to the vectorised IndexByte, which is faster still across text
// without quotes.
//
// Every position the pair test passes is compared whole, so the result is
// bytes.Contains's for any s and word, with either pair test
// (FuzzContainsWord).
func containsWord(s, word []byte) bool { return searchWord(s, word, false) }

// searchWord is containsWord; portable makes it test the pairs with the
// pure Go pairRunGo even where pairRun has assembly, for the tests to
// compare both with bytes.Contains.
func searchWord(s, word []byte, portable bool) bool {
	n := len(word)
	if n < 2 || len(s) < wordMin {
		return bytes.Contains(s, word)
	}
	last := word[n-1]
	p := 0 // no match starts before p
	for p <= len(s)-n {
		// Skip to the next occurrence of the last byte, and try there.
		j := bytes.IndexByte(s[p+n-1:], last)
		if j < 0 {
			return false
		}
		p += j
		if bytes.Equal(s[p:p+n], word) {
			return true
		}
		p++
		if j >= sparseGap {
			continue // IndexByte is skipping far: let it go on
		}
		// The last byte is dense here: test the pair at every position of
		// a stretch. A round of 32 positions from p reads up to
		// s[p+n+30], so the stretch ends at len(s)-n-31 at the latest;
		// IndexByte takes the rest.
		stop := min(p+denseRun, len(s)-n-31)
		var found bool
		if portable {
			p, found = pairRunGo(s, word, p, stop)
		} else {
			p, found = pairRun(s, word, p, stop)
		}
		if found {
			return true
		}
	}
	return false
}

// pairRunGo reports whether word starts at a position from p to about
// stop, stop <= len(s)-len(word)-31, testing the pair at 32 positions a
// round; it returns the first position it did not test.
func pairRunGo(s, word []byte, p, stop int) (int, bool) {
	n := len(word)
	c1, c2 := uint64(word[n-2])*lo8, uint64(word[n-1])*lo8
	for ; p <= stop; p += 32 {
		w := s[p+n-2 : p+n+31]
		if (pairs(load64(w[0:])^c1, load64(w[1:])^c2)|pairs(load64(w[8:])^c1, load64(w[9:])^c2)|
			pairs(load64(w[16:])^c1, load64(w[17:])^c2)|pairs(load64(w[24:])^c1, load64(w[25:])^c2))&hi8 == 0 {
			continue
		}
		if matchRound(s, word, p, c1, c2) {
			return p, true
		}
	}
	return p, false
}

// Tuning of containsWord, measured on escaped text (BenchmarkContainsWord).
const (
	// wordMin: below it bytes.Contains (brute force under 64 bytes) is as
	// fast and the pair search is not worth its setup.
	wordMin = 256
	// sparseGap: an IndexByte call that skipped this far paid for itself;
	// a shorter skip switches to the pair test for denseRun bytes.
	sparseGap = 256
	denseRun  = 4 << 10
)

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// pairs flags, in the high bit of each byte (the other bits are noise),
// the bytes where both x and y are zero: the positions where both bytes of
// the pair matched, x and y being the two loads xored with the pair's
// bytes. The lowest flag of a word is exact; one above it may be a false
// alarm (a borrow), which the compare turns down.
func pairs(x, y uint64) uint64 {
	z := x | y
	return (z - lo8) &^ z
}

// matchRound reports whether word occurs at one of the 32 positions from
// p, compared whole where the pair test passes.
func matchRound(s, word []byte, p int, c1, c2 uint64) bool {
	n := len(word)
	for k := p; k < p+32; k += 8 {
		for m := pairs(load64(s[k+n-2:])^c1, load64(s[k+n-1:])^c2) & hi8; m != 0; m &= m - 1 {
			q := k + bits.TrailingZeros64(m)>>3
			if s[q] == word[0] && bytes.Equal(s[q:q+n], word) {
				return true
			}
		}
	}
	return false
}

// load64 is the little-endian 64-bit word at the start of b, which the
// compiler makes one load.
func load64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}
