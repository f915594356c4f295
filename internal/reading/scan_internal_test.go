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

// TestScanBackStreaming checks the scan of long lines against a plain
// split: lines of every length class, the filter at the start, the
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
				n = block - 50 + rng.IntN(100) // around a block
			case 2, 3:
				n = 300<<10 + rng.IntN(2<<20)
			case 4:
				if rng.IntN(4) == 0 {
					n = MaxLine + block + rng.IntN(1<<20) // clearly too long
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
			err := scanBack(bytes.NewReader(data), int64(len(data)), f, func(line []byte) bool {
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

// TestScanBackFilterAcrossBlocks: a filter split by a block's edge, at
// every split, in a line longer than a block, is seen.
func TestScanBackFilterAcrossBlocks(t *testing.T) {
	filter := []byte(`"assistant"`)
	for _, edge := range []int{firstBlock, firstBlock + block, firstBlock + 2*block} {
		for split := 0; split <= len(filter); split++ {
			line := bytes.Repeat([]byte("x"), 3*block)
			tail := []byte("\nshort\n")
			// The edge is edge bytes from the end of the file.
			at := len(line) + len(tail) - edge - split
			copy(line[at:], filter)
			data := append(append([]byte("first\n"), line...), tail...)
			var got [][]byte
			if err := scanBack(bytes.NewReader(data), int64(len(data)), filter, func(l []byte) bool {
				got = append(got, bytes.Clone(l))
				return true
			}); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || !bytes.Equal(got[0], line) {
				t.Errorf("edge %d, split %d: %d lines passed, want the long one", edge, split, len(got))
			}
		}
	}
}
