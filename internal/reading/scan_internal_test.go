package reading

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// naiveLines is what scanBack must pass on: the lines of data from last to
// first, non-empty, holding filter, at most MaxLine bytes.
func naiveLines(data, filter []byte) [][]byte {
	var out [][]byte
	lines := bytes.Split(data, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if len(l) == 0 || len(l) > MaxLine || (filter != nil && !bytes.Contains(l, filter)) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// TestScanBackStreaming checks the streaming of long lines against a
// plain split: lines of every length class, the filter at the start, the
// middle, the end of a line or nowhere, and lines past MaxLine.
func TestScanBackStreaming(t *testing.T) {
	filter := []byte(`"assistant"`)
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 99))
		var data []byte
		for range 40 {
			var n int
			switch rng.IntN(10) {
			case 0, 1:
				n = dropAfter - 50 + rng.IntN(100) // around the streaming threshold
			case 2, 3:
				n = 300<<10 + rng.IntN(2<<20)
			case 4:
				if rng.IntN(4) == 0 {
					n = MaxLine + dropBlock + rng.IntN(1<<20) // clearly too long
				} else {
					n = rng.IntN(64 << 10)
				}
			default:
				n = rng.IntN(2000)
			}
			line := bytes.Repeat([]byte("x"), n)
			if n > len(filter) && rng.IntN(2) == 0 {
				// Anywhere, including across any block boundary.
				at := rng.IntN(n - len(filter))
				switch rng.IntN(4) {
				case 0:
					at = 0
				case 1:
					at = n - len(filter)
				}
				copy(line[at:], filter)
			}
			data = append(data, line...)
			if rng.IntN(20) != 0 { // sometimes two lines run together
				data = append(data, '\n')
			}
		}
		if rng.IntN(2) == 0 {
			data = bytes.TrimSuffix(data, []byte("\n")) // a final line without newline
		}
		for _, f := range [][]byte{filter, nil} {
			want := naiveLines(data, f)
			var got [][]byte
			err := scanBack(bytes.NewReader(data), int64(len(data)), f, nil, func(line []byte, at int64) bool {
				if at < 0 || at+int64(len(line)) > int64(len(data)) || !bytes.Equal(data[at:at+int64(len(line))], line) {
					t.Fatalf("seed %d: a line passed with offset %d, which does not hold it", seed, at)
				}
				got = append(got, bytes.Clone(line))
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("seed %d filter %q: %d lines, want %d", seed, f, len(got), len(want))
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("seed %d filter %q: line %d differs (len %d, want %d)", seed, f, i, len(got[i]), len(want[i]))
				}
			}
		}
	}
}

func TestLastNewline(t *testing.T) {
	for _, n := range []int{0, 1, 4095, 4096, 4097, 9000, 70000} {
		b := bytes.Repeat([]byte("x"), n)
		for _, at := range []int{-1, 0, n / 3, n - 1, n - 4096, n - 4097} {
			c := bytes.Clone(b)
			if at >= 0 && at < n {
				c[at] = '\n'
				if at > 0 {
					c[at/2] = '\n' // an earlier one must not win
				}
			}
			if got, want := lastNewline(c), bytes.LastIndexByte(c, '\n'); got != want {
				t.Errorf("len %d newline at %d: got %d, want %d", n, at, got, want)
			}
		}
	}
}
