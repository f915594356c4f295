package cli

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
)

// Claude Code writes the transcript asynchronously: the Stop hook can start
// before the turn's final response is on disk, and a row priced then would
// miss it (the session's last stop would miss it for good). The payload
// carries that response's text, so the hook waits, bounded, until the
// transcript's last own response with text shows it.
const (
	stopWait     = time.Second
	stopWaitPoll = 10 * time.Millisecond
)

// waitForFinal waits until the transcript's last main-chain response with
// a text block says text, or stopWait has passed; it reports whether the
// text was seen. An empty text is not waited for.
func waitForFinal(path, text string) bool {
	want := strings.Join(strings.Fields(text), " ")
	if want == "" {
		return true
	}
	deadline := time.Now().Add(stopWait)
	for {
		// The final response's text blocks may sit on several records, the
		// last record holding the last block: so the last text seen is the
		// message, holds it, or ends it. Merely appearing inside it would
		// let an earlier, shorter response end the wait too soon.
		if got, ok := lastText(path); ok && got != "" && (strings.Contains(got, want) || strings.HasSuffix(want, got)) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(stopWaitPoll)
	}
}

// lastText returns the text of the transcript's last main-chain response
// record that holds a text block, whitespace collapsed.
func lastText(path string) (string, bool) {
	f, fi, err := reading.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	var text string
	found := false
	reading.ScanBack(f, fi.Size(), func(line []byte) bool {
		transcript.Decode(line, func(r *transcript.Record) {
			if found || !r.IsResponse() {
				return
			}
			var blocks []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			if json.Unmarshal(r.Message.Content, &blocks) != nil {
				return
			}
			var parts []string
			for _, b := range blocks {
				if b.Type == "text" {
					parts = append(parts, b.Text)
				}
			}
			if len(parts) > 0 {
				text, found = strings.Join(strings.Fields(strings.Join(parts, " ")), " "), true
			}
		})
		return !found
	})
	return text, found
}
