package reading

import (
	"bytes"
	"testing"
)

// closingQuoteRef is closingQuote walked one byte at a time: the
// reference both versions are held to.
func closingQuoteRef(seg []byte, run int) (int, int) {
	for i, c := range seg {
		switch {
		case c == '"' && run%2 == 0:
			return i, 0
		case c == '\\':
			run++
		default:
			run = 0
		}
	}
	return -1, run
}

// checkClosingQuote compares both versions with the reference on seg.
func checkClosingQuote(t *testing.T, seg []byte, run int) {
	t.Helper()
	wj, wr := closingQuoteRef(seg, run)
	for _, v := range []struct {
		name string
		fn   func([]byte, int) (int, int)
	}{{"closingQuote", closingQuote}, {"closingQuoteGo", closingQuoteGo}} {
		j, r := v.fn(seg, run)
		if j != wj || (j < 0 && r != wr) {
			t.Fatalf("%s(%q, %d) = %d, %d; want %d, %d", v.name, seg, run, j, r, wj, wr)
		}
	}
}

// TestClosingQuotePositions puts an ending quote, after runs of 0 to 5
// backslashes, at every position of backgrounds of escaped quotes,
// backslashes and plain text, at lengths around a round of 64 and the
// two positions tested before the rounds; and carries runs in from before
// the segment.
func TestClosingQuotePositions(t *testing.T) {
	backgrounds := map[string][]byte{
		"plain":       bytes.Repeat([]byte("abcdefgh"), 40),
		"escaped":     bytes.Repeat([]byte(`ab \"x\" `), 40),
		"backslashes": bytes.Repeat([]byte(`\\`), 160),
		"pairs":       bytes.Repeat([]byte(`\\\"`), 80),
	}
	for name, bg := range backgrounds {
		for _, n := range []int{0, 1, 2, 3, 66, 67, 68, 69, 130, 131, 132, 133, 200, 320} {
			base := bg[:min(n, len(bg))]
			for run := range 4 {
				checkClosingQuote(t, base, run)
			}
			for p := 0; p < len(base); p++ {
				for k := 0; k <= 5 && k <= p; k++ {
					s := bytes.Clone(base)
					for i := p - k; i < p; i++ {
						s[i] = '\\'
					}
					s[p] = '"'
					if p-k > 0 && s[p-k-1] == '\\' {
						s[p-k-1] = 'z' // the run is exactly k
					}
					for run := range 3 {
						checkClosingQuote(t, s, run)
					}
				}
				_ = name
			}
		}
	}
}

// FuzzClosingQuote compares closingQuote and closingQuoteGo with the
// byte-by-byte reference on any bytes and any carried run, and on the
// bytes repeated past a few rounds.
func FuzzClosingQuote(f *testing.F) {
	for _, text := range escapedTexts() {
		f.Add(text[1:400], 0)
	}
	f.Add([]byte(`\\"`), 1)
	f.Add(bytes.Repeat([]byte(`a\"`), 50), 0)
	f.Add(bytes.Repeat([]byte(`\\`), 70), 1)
	f.Add(append(bytes.Repeat([]byte(`x\"\\`), 30), '"'), 0)
	f.Fuzz(func(t *testing.T, seg []byte, run int) {
		run = max(run, 0) % 8
		checkClosingQuote(t, seg, run)
		if len(seg) > 0 && len(seg) < 200 {
			checkClosingQuote(t, bytes.Repeat(seg, 200/len(seg)+1), run)
		}
	})
}

// BenchmarkClosingQuote skips the tail scan's JSON document and log
// texts, each one JSON string, in the payload scanner's 32 KB windows,
// with both versions.
func BenchmarkClosingQuote(b *testing.B) {
	for _, kind := range []string{"json", "log"} {
		text := escapedTexts()[kind]
		text = text[1 : len(text)-1] // the string's bytes, without its quotes
		for _, v := range []struct {
			name string
			fn   func([]byte, int) (int, int)
		}{{"closingQuote", closingQuote}, {"closingQuoteGo", closingQuoteGo}} {
			b.Run(kind+"/"+v.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					run := 0
					for s := 0; s < len(text); s += windowSize {
						j, r := v.fn(text[s:min(s+windowSize, len(text))], run)
						if j >= 0 {
							b.Fatalf("an end at %d", s+j)
						}
						run = r
					}
				}
			})
		}
	}
}
