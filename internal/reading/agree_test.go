package reading_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// TestTailAgreesWithHistory: the reading the tail takes is the last
// response the full passes find, decoding with transcript.Decode and
// taking responses by the history's rule (History.Add), after every line
// that may hold one, in every real transcript and corpus session. The
// tail reads records with reading's own decoder; this keeps the two from
// drifting apart.
func TestTailAgreesWithHistory(t *testing.T) {
	var files []string
	for _, find := range []func() (string, error){sharedtest.Dir, sharedtest.CorpusDir} {
		dir, err := find()
		if err != nil {
			continue
		}
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(path) == ".jsonl" {
				files = append(files, path)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skip("neither the real transcripts nor the corpus is beside the repository")
	}
	checked := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f := bytes.NewReader(data)
		lr := reading.NewReader(bytes.NewReader(data))
		lr.Final = true
		var h forecast.History
		var want reading.Reading
		found := false
		for {
			line, err := lr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(line, []byte(transcript.AssistantWord)) {
				continue
			}
			transcript.Decode(line, func(r *transcript.Record) {
				if h.Add(r) {
					u := *r.Message.Usage
					want = reading.Reading{Tokens: u.Context(), Model: r.Message.Model, RequestedModel: r.RequestedModel,
						Version: r.Version, MessageID: r.Message.ID, Usage: u, Time: r.Timestamp}
					found = true
				}
			})
			got, _, err := reading.Last(f, lr.Offset(), "")
			if found != (err == nil) || !reflect.DeepEqual(got, want) ||
				(found && (h.Last.ID != got.MessageID || h.Last.Context != got.Tokens)) {
				t.Fatalf("%s at %d bytes: the tail reads %+v (err %v); the history pass %+v (found %v)",
					filepath.Base(path), lr.Offset(), got, err, want, found)
			}
			checked++
		}
	}
	t.Logf("%d files, %d positions", len(files), checked)
}
