package reading_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/reading"
)

// follower is a caller of Pass: the lines it has taken from one file,
// dropped when the pass says the file was replaced.
type follower struct {
	mark   reading.Mark
	lines  []string
	resets int
}

// read runs one pass over path and returns its end report.
func (f *follower) read(t *testing.T, p *reading.Pass, path string) bool {
	t.Helper()
	end, err := p.Read(path, &f.mark, func() { f.lines, f.resets = nil, f.resets+1 }, func(line []byte) bool {
		f.lines = append(f.lines, string(line))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return end
}

func numbered(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"n":%d,"pad":"%s"}`+"\n", i, strings.Repeat("x", i%7))
	}
	return b.String()
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A file read as it grows, cut mid-line, yields each complete line once,
// in order; the last, half-written line waits for the next pass.
func TestPassResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	whole := numbered(50)
	want := strings.Split(strings.TrimSuffix(whole, "\n"), "\n")
	for _, step := range []int{5, 37, 333, len(whole)} {
		var f follower
		for end := step; ; end += step {
			end = min(end, len(whole))
			write(t, path, whole[:end])
			var p reading.Pass
			if !f.read(t, &p, path) {
				t.Fatalf("step %d: a pass with no limit did not reach the end", step)
			}
			if f.mark.Offset > int64(end) || (f.mark.Offset > 0 && whole[f.mark.Offset-1] != '\n') {
				t.Fatalf("step %d: mark at %d of %d, not past a line", step, f.mark.Offset, end)
			}
			if end == len(whole) {
				break
			}
		}
		if !slices.Equal(f.lines, want) || f.resets != 0 || f.mark.Offset != int64(len(whole)) {
			t.Errorf("step %d: %d lines (%d resets), mark %d; want %d lines, mark %d",
				step, len(f.lines), f.resets, f.mark.Offset, len(want), len(whole))
		}
	}
}

// A file truncated, or rewritten with other bytes, is another file: the
// caller is told and the file is read from its start. The same bytes
// written again are the same file.
func TestPassRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	first := numbered(20)
	for _, c := range []struct {
		name, then string
		resets     int
	}{
		{"the same bytes again", first, 0},
		{"the same bytes and more", first + numbered(3), 0},
		{"truncated", numbered(5), 1},
		{"the same size, another first line", `{"n":9` + first[6:], 1},
		{"the same size, another last line", first[:len(first)-5] + "999}\n", 1},
	} {
		write(t, path, first)
		var f follower
		var p reading.Pass
		f.read(t, &p, path)
		write(t, path, c.then)
		p = reading.Pass{}
		f.read(t, &p, path)
		want := strings.Split(strings.TrimSuffix(c.then, "\n"), "\n")
		if f.resets != c.resets || !slices.Equal(f.lines, want) {
			t.Errorf("%s: %d resets, %d lines; want %d resets, %d lines", c.name, f.resets, len(f.lines), c.resets, len(want))
		}
	}
}

// A pass reads at most its Limit over all its files (and the line that
// crosses it); passes one after another take every line once.
func TestPassLimit(t *testing.T) {
	dir := t.TempDir()
	names := []string{filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")}
	data := []string{numbered(300), numbered(200)}
	for i, name := range names {
		write(t, name, data[i])
	}
	const limit = 1000
	longest := len(`{"n":299,"pad":"xxxxxx"}` + "\n")
	fs := make([]follower, len(names))
	passes := 0
	for fs[0].mark.Offset < int64(len(data[0])) || fs[1].mark.Offset < int64(len(data[1])) {
		if passes++; passes > 100 {
			t.Fatal("the passes do not catch up")
		}
		p := reading.Pass{Limit: limit}
		var read int64
		for i, name := range names {
			from := fs[i].mark.Offset
			fs[i].read(t, &p, name)
			read += fs[i].mark.Offset - from
		}
		if read > limit+int64(longest) {
			t.Fatalf("pass %d read %d bytes, past its limit of %d", passes, read, limit)
		}
		if !p.Spent() && read < limit && (fs[0].mark.Offset < int64(len(data[0])) || fs[1].mark.Offset < int64(len(data[1]))) {
			t.Fatalf("pass %d stopped after %d bytes with lines left", passes, read)
		}
	}
	if passes < (len(data[0])+len(data[1]))/(limit+longest) {
		t.Errorf("caught up in %d passes of %d bytes", passes, limit)
	}
	for i := range names {
		if got := strings.Join(fs[i].lines, "\n") + "\n"; got != data[i] || fs[i].resets != 0 {
			t.Errorf("%s: the passes took %d bytes of %d", names[i], len(got), len(data[i]))
		}
	}
}

// A caller that stops at a line resumes after it.
func TestPassStopsWhenAsked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	whole := numbered(10)
	write(t, path, whole)
	var m reading.Mark
	var got []string
	for range 3 {
		var p reading.Pass
		end, err := p.Read(path, &m, func() { t.Fatal("reset") }, func(line []byte) bool {
			got = append(got, string(line))
			return !strings.Contains(string(line), `"n":4`)
		})
		if err != nil {
			t.Fatal(err)
		}
		if end != (len(got) == 10) {
			t.Fatalf("end %v after %d lines", end, len(got))
		}
	}
	if want := strings.Split(strings.TrimSuffix(whole, "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
}

// A file that cannot be read is an error, and the mark stays.
func TestPassUnreadable(t *testing.T) {
	dir := t.TempDir()
	m := reading.Mark{Offset: 42, Check: 7}
	var p reading.Pass
	for _, name := range []string{filepath.Join(dir, "missing.jsonl"), dir} {
		if _, err := p.Read(name, &m, func() { t.Fatal("reset") }, func([]byte) bool { return true }); err == nil {
			t.Errorf("%s: no error", name)
		}
		if m != (reading.Mark{Offset: 42, Check: 7}) {
			t.Errorf("%s: the mark moved to %+v", name, m)
		}
	}
}

// FuzzPass: any bytes, read in two passes cut anywhere (the file growing
// between them), yield the lines of one pass, and the mark ends past a
// newline.
func FuzzPass(f *testing.F) {
	f.Add([]byte(numbered(5)), 17)
	f.Add([]byte("a\n\nb\x00\nc"), 3)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		if cut < 0 || cut > len(data) {
			cut = len(data) / 2
		}
		path := filepath.Join(dir, "s.jsonl")
		write(t, path, string(data))
		var whole follower
		whole.read(t, &reading.Pass{}, path)
		write(t, path, string(data[:cut]))
		var step follower
		step.read(t, &reading.Pass{}, path)
		write(t, path, string(data))
		step.read(t, &reading.Pass{}, path)
		if !slices.Equal(whole.lines, step.lines) || whole.mark != step.mark || step.resets != 0 {
			t.Fatalf("whole %q at %+v; in two passes %q at %+v (%d resets)", whole.lines, whole.mark, step.lines, step.mark, step.resets)
		}
		if off := whole.mark.Offset; off > int64(len(data)) || (off > 0 && data[off-1] != '\n') {
			t.Fatalf("mark %d of %d bytes", off, len(data))
		}
	})
}
