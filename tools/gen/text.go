package gen

import (
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// textCorpus is JSON-escaped text that looks like tool output (code, test
// logs, paths), cut into lines, and the offset of each line, so that any
// slice from one start to another is valid JSON string content. It is
// built on first use, not at package initialisation: every test binary
// that imports gen runs that init, including the ones that run as the
// hook and measure its peak memory.
var textCorpus = sync.OnceValues(buildCorpus)

var words = strings.Fields(`func return err nil if for range := package import
	"github.com/muthur/context-budget/internal/reading" bytes.LastIndexByte(data[:end], '\n')
	ok PASS FAIL --- RUN TestTail/half-written 0.004s internal/state/state.go:112: want
	got {"type":"assistant"} \ backslash\path tab	tab café naïve — ● ✓ 📋 <system-reminder>
	the reading is input plus cache read plus cache write of the last response`)

func buildCorpus() (string, []int) {
	rng := rand.New(rand.NewPCG(1, 2))
	var b []byte
	var offs []int
	for len(b) < 256<<10 {
		offs = append(offs, len(b))
		indent := rng.IntN(4)
		line := strings.Repeat("\t", indent)
		for n := 3 + rng.IntN(12); n > 0; n-- {
			line += words[rng.IntN(len(words))] + " "
		}
		b = appendEscaped(b, line+"\n")
	}
	return string(b), offs
}

// appendText appends about n bytes of escaped text, whole corpus lines from
// a random line on, wrapping around.
func appendText(b []byte, rng *rand.Rand, n int) []byte {
	corpus, starts := textCorpus()
	i := starts[rng.IntN(len(starts))]
	for n > 0 {
		rest := corpus[i:]
		if len(rest) > n {
			// Stop at the first line start at or past n bytes.
			j := sort.SearchInts(starts, i+n)
			end := len(corpus)
			if j < len(starts) {
				end = starts[j]
			}
			rest = corpus[i:end]
		}
		b = append(b, rest...)
		n -= len(rest)
		i = 0
	}
	return b
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s)
	return append(b, '"')
}

// appendEscaped appends s escaped for a JSON string, without quotes.
func appendEscaped(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			_, size := utf8.DecodeRuneInString(s[i:])
			b = append(b, s[i:i+size]...)
			i += size
			continue
		}
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
		i++
	}
	return b
}
