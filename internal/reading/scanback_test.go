package reading

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// forwardLines is what ScanBack should pass, in its order: the non-empty
// lines of data no longer than MaxLine, last first.
func forwardLines(data []byte) []string {
	var out []string
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(l) > 0 && len(l) <= MaxLine {
			out = append(out, string(l))
		}
	}
	slices.Reverse(out)
	return out
}

func scanAll(t *testing.T, data []byte) []string {
	t.Helper()
	var got []string
	err := ScanBack(bytes.NewReader(data), int64(len(data)), func(line []byte) bool {
		got = append(got, string(line))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// makeLines builds a file of lines of the given lengths, each line's bytes
// telling it apart from its neighbours.
func makeLines(lengths []int, finalNewline bool) []byte {
	var b bytes.Buffer
	for i, n := range lengths {
		b.WriteString(strings.Repeat(string(rune('a'+i%26)), n))
		if i < len(lengths)-1 || finalNewline {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// TestScanBackBoundaries puts newlines on and around the block boundaries
// the scan reads at, and lines at and around MaxLine.
func TestScanBackBoundaries(t *testing.T) {
	var cases [][]int
	for _, final := range []int{firstBlock - 3, firstBlock - 2, firstBlock - 1, firstBlock, firstBlock + 1,
		2*firstBlock - 2, 2*firstBlock - 1, 2 * firstBlock, 4*firstBlock + 1} {
		cases = append(cases, []int{10, final}, []int{firstBlock - 1, final}, []int{0, final, 0})
	}
	cases = append(cases,
		[]int{5, MaxLine - 1, 7}, []int{5, MaxLine, 7}, []int{5, MaxLine + 1, 7}, []int{5, MaxLine + 2},
		[]int{MaxLine + 1}, []int{MaxLine}, []int{MaxLine + firstBlock, 3}, []int{3, 2 * MaxLine, 4},
		[]int{}, []int{0}, []int{1}, []int{0, 0, 0})
	for _, lengths := range cases {
		for _, nl := range []bool{true, false} {
			data := makeLines(lengths, nl)
			got, want := scanAll(t, data), forwardLines(data)
			if !slices.Equal(got, want) {
				t.Errorf("lengths %v, final newline %v: got %d lines %v, want %d lines %v",
					lengths, nl, len(got), lens(got), len(want), lens(want))
			}
		}
	}
}

func lens(ls []string) []int {
	out := make([]int, len(ls))
	for i, l := range ls {
		out[i] = len(l)
	}
	return out
}

// TestScanBackRandom compares ScanBack with a forward split on random
// files of short and block-sized lines.
func TestScanBackRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 80 {
		lengths := make([]int, rng.IntN(40))
		for i := range lengths {
			switch rng.IntN(4) {
			case 0:
				lengths[i] = 0
			case 1:
				lengths[i] = rng.IntN(100)
			case 2:
				lengths[i] = firstBlock - 2 + rng.IntN(4)
			default:
				lengths[i] = rng.IntN(3 * firstBlock)
			}
		}
		data := makeLines(lengths, rng.IntN(2) == 0)
		if got, want := scanAll(t, data), forwardLines(data); !slices.Equal(got, want) {
			t.Fatalf("lengths %v: got lines %v, want %v", lengths, lens(got), lens(want))
		}
	}
}

// TestScanBackStops checks that fn returning false ends the scan.
func TestScanBackStops(t *testing.T) {
	data := makeLines([]int{3, 4, 5, 6}, true)
	calls := 0
	ScanBack(bytes.NewReader(data), int64(len(data)), func(line []byte) bool {
		calls++
		return len(line) != 5
	})
	if calls != 2 {
		t.Errorf("fn called %d times, want 2 (stop at the line of 5)", calls)
	}
}

// patternReader is a large file of 60,000-byte lines that is never held in
// memory; it records the lowest offset read.
type patternReader struct {
	size, lowest int64
}

const patternLine = 60_000

// pattern is two lines of the file, to copy from.
var pattern = func() []byte {
	b := bytes.Repeat([]byte("x"), 2*patternLine)
	b[patternLine-1], b[2*patternLine-1] = '\n', '\n'
	return b
}()

func (p *patternReader) ReadAt(b []byte, off int64) (int, error) {
	p.lowest = min(p.lowest, off)
	for n := 0; n < len(b); {
		n += copy(b[n:], pattern[(off+int64(n))%patternLine:])
	}
	return len(b), nil
}

// TestScanBackMaxBack checks that the scan gives up MaxBack bytes from the
// end of a larger file.
func TestScanBackMaxBack(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 256 MB")
	}
	size := int64(MaxBack + 64<<20)
	p := &patternReader{size: size, lowest: size}
	n := 0
	ScanBack(p, size, func([]byte) bool { n++; return true })
	if p.lowest < size-MaxBack-firstBlock || p.lowest > size-MaxBack+firstBlock {
		t.Errorf("lowest offset read %d, want about size-MaxBack = %d", p.lowest, size-MaxBack)
	}
	if want := MaxBack / patternLine; n < want-2 || n > want+2 {
		t.Errorf("%d lines passed, want about %d", n, want)
	}
}
