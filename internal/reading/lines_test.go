package reading_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/muthur/context-budget/internal/reading"
)

// lines reads all of in through a Reader and returns the lines, the
// final offset and the skip count.
func lines(t *testing.T, r io.Reader, max int, final bool) (got []string, off int64, skipped int) {
	t.Helper()
	lr := reading.NewReader(r)
	lr.MaxLine, lr.Final = max, final
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return got, lr.Offset(), lr.Skipped
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
}

func TestReaderLines(t *testing.T) {
	long := strings.Repeat("x", 300<<10)
	tests := []struct {
		name    string
		in      string
		max     int
		final   bool
		want    []string
		off     int64
		skipped int
	}{
		{"empty", "", 0, false, nil, 0, 0},
		{"two lines", "a\nbc\n", 0, false, []string{"a", "bc"}, 5, 0},
		{"empty lines kept", "\n\na\n", 0, false, []string{"", "", "a"}, 4, 0},
		{"half-written last line held back", "a\nb", 0, false, []string{"a"}, 2, 0},
		{"last line returned when final", "a\nb", 0, true, []string{"a", "b"}, 3, 0},
		{"long line kept up to max", long + "\nz\n", len(long), false, []string{long, "z"}, int64(len(long) + 3), 0},
		{"long line skipped past max", "a\n" + long + "\nz\n", len(long) - 1, false, []string{"a", "z"}, int64(len(long) + 5), 1},
		{"short line over max skipped", "abcd\nab\n", 3, false, []string{"ab"}, 8, 1},
		{"over-long last line held, not skipped", "a\n" + long, 10, false, []string{"a"}, 2, 0},
		{"over-long final last line skipped", "a\n" + long, 10, true, []string{"a"}, int64(len(long) + 2), 1},
	}
	for _, tt := range tests {
		for _, name := range []string{"whole", "bytewise"} {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				var r io.Reader = strings.NewReader(tt.in)
				if name == "bytewise" {
					if len(tt.in) > 1000 {
						r = iotest.HalfReader(r)
					} else {
						r = iotest.OneByteReader(r)
					}
				}
				got, off, skipped := lines(t, r, tt.max, tt.final)
				if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
					t.Errorf("lines: got %d %.40q, want %d %.40q", len(got), got, len(tt.want), tt.want)
				}
				if off != tt.off {
					t.Errorf("offset: got %d, want %d", off, tt.off)
				}
				if skipped != tt.skipped {
					t.Errorf("skipped: got %d, want %d", skipped, tt.skipped)
				}
			})
		}
	}
}

// A pass that stops at a held-back line and resumes from Offset reads the
// same lines as one pass over the finished file.
func TestReaderResume(t *testing.T) {
	whole := "one\n" + strings.Repeat("y", 200<<10) + "\nthree\nfour\n"
	cut := len(whole) - 3 // inside "four"
	lr := reading.NewReader(strings.NewReader(whole[:cut]))
	lr.MaxLine = 100 << 10
	var got []string
	for {
		line, err := lr.Next()
		if err != nil {
			break
		}
		got = append(got, string(line))
	}
	off := lr.Offset()
	if want := int64(len(whole) - len("four\n")); off != want {
		t.Fatalf("offset after first pass: got %d, want %d", off, want)
	}
	lr.Reset(strings.NewReader(whole[off:]), off)
	for {
		line, err := lr.Next()
		if err != nil {
			break
		}
		got = append(got, string(line))
	}
	if strings.Join(got, ",") != "one,three,four" {
		t.Errorf("got %q", got)
	}
	if lr.Offset() != int64(len(whole)) {
		t.Errorf("final offset %d, want %d", lr.Offset(), len(whole))
	}
}

// The buffer never grows much past MaxLine, however long a line is.
func TestReaderMemoryBound(t *testing.T) {
	huge := io.MultiReader(strings.NewReader("a\n"), io.LimitReader(infinite('x'), 64<<20), strings.NewReader("\nb\n"))
	got, _, skipped := lines(t, huge, 1<<20, false)
	if strings.Join(got, ",") != "a,b" || skipped != 1 {
		t.Errorf("got %q skipped %d", got, skipped)
	}
	allocs := testing.AllocsPerRun(1, func() {
		lr := reading.NewReader(io.LimitReader(infinite('x'), 32<<20))
		lr.MaxLine = 1 << 20
		lr.Next()
	})
	if allocs > 20 {
		t.Errorf("%v allocations to skip 32 MiB: the buffer grows with the line", allocs)
	}
}

type infinite byte

func (c infinite) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c)
	}
	return len(p), nil
}

func TestReaderError(t *testing.T) {
	boom := errors.New("boom")
	lr := reading.NewReader(io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(boom)))
	if line, err := lr.Next(); err != nil || string(line) != "a" {
		t.Fatalf("first: %q %v", line, err)
	}
	if _, err := lr.Next(); !errors.Is(err, boom) {
		t.Fatalf("second: got %v, want boom", err)
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), 2, false)
	f.Add([]byte(strings.Repeat("z", 5000)+"\nq\n"), 100, true)
	f.Fuzz(func(t *testing.T, in []byte, max int, final bool) {
		if max <= 0 || max > 1<<16 {
			max = 1 + max&0xfff
		}
		// The reference: split on newlines, hold or keep the tail, drop
		// lines over max.
		parts := bytes.Split(in, []byte("\n"))
		tail := parts[len(parts)-1]
		parts = parts[:len(parts)-1]
		var want []string
		wantOff, wantSkip := int64(0), 0
		for _, p := range parts {
			wantOff += int64(len(p)) + 1
			if len(p) > max {
				wantSkip++
				continue
			}
			want = append(want, string(p))
		}
		if final && len(tail) > 0 {
			wantOff += int64(len(tail))
			if len(tail) > max {
				wantSkip++
			} else {
				want = append(want, string(tail))
			}
		}
		got, off, skipped := lines(t, iotest.HalfReader(bytes.NewReader(in)), max, final)
		if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) || off != wantOff || skipped != wantSkip {
			t.Fatalf("got %d lines off %d skip %d, want %d lines off %d skip %d", len(got), off, skipped, len(want), wantOff, wantSkip)
		}
	})
}
