package cli

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/replay"
)

func TestProgressPrinter(t *testing.T) {
	var b bytes.Buffer
	p := progressPrinter(&b)
	p(replay.Progress{Files: 3, TotalFiles: 10, Bytes: 50e6, TotalBytes: 200e6, Elapsed: 2 * time.Second})
	p(replay.Progress{Files: 10, TotalFiles: 10, Bytes: 200e6, TotalBytes: 200e6, Elapsed: 4 * time.Second, Done: true})
	want := "\rreplay: 3/10 files, 50/200 MB, 25 MB/s \rreplay: 10/10 files, 200/200 MB, 50 MB/s \n"
	if b.String() != want {
		t.Errorf("progress:\n got %q\nwant %q", b.String(), want)
	}
}

// Progress is drawn only on a terminal: a file, a pipe or a buffer is
// none.
func TestIsTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&bytes.Buffer{}) {
		t.Error("a file or a buffer taken for a terminal")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !isTerminal(tty) {
			t.Error("/dev/tty not taken for a terminal")
		}
	}
}
