package reading

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/tools/sharedtest"
)

// This file holds the tests' oracle: a whole-file forward parse of a
// transcript written from the design (§3) alone, sharing no code with the
// tail reader or the transcript decoder, and the real transcripts it is
// checked against.

// refUsage and refRecord are the oracle's own view of a record.
type refUsage struct {
	Input         int64 `json:"input_tokens"`
	CacheCreation int64 `json:"cache_creation_input_tokens"`
	CacheRead     int64 `json:"cache_read_input_tokens"`
	Output        int64 `json:"output_tokens"`
	Split         *struct {
		Eph5m int64 `json:"ephemeral_5m_input_tokens"`
		Eph1h int64 `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
	Speed string `json:"speed"`
}

type refRecord struct {
	Type           string `json:"type"`
	IsSidechain    bool   `json:"isSidechain"`
	RequestedModel string `json:"requestedModel"`
	Message        *struct {
		ID      string          `json:"id"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
		Usage   *refUsage       `json:"usage"`
	} `json:"message"`
}

// qualifies is design §3's rule for the records the reading comes from.
func (r *refRecord) qualifies() bool {
	return r.Type == "assistant" && !r.IsSidechain && r.Message != nil &&
		r.Message.Usage != nil && r.Message.Model != "<synthetic>"
}

// oracleKeys are the keys the oracle reads.
var oracleKeys = []string{"type", "isSidechain", "requestedModel", "message", "id", "model", "content", "usage",
	"input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens", "cache_creation",
	"ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens", "speed"}

// exactKeys reports whether every object in the JSON text data names each
// key once, and none of the oracle's keys in another case. The oracle
// decodes into Go structs, which match keys in any case and merge an
// object named twice; Claude Code (JSON.parse) and the tail's reader
// match keys exactly and take the last. Records where the two readings
// differ are outside the oracle's domain.
func exactKeys(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	t, err := dec.Token()
	return err == nil && exactValue(dec, t)
}

func exactValue(dec *json.Decoder, t json.Token) bool {
	d, ok := t.(json.Delim)
	if !ok {
		return true
	}
	seen := map[string]bool{}
	for dec.More() {
		if d == '{' {
			k, err := dec.Token()
			key, _ := k.(string)
			if err != nil || seen[key] {
				return false
			}
			for _, name := range oracleKeys {
				if key != name && strings.EqualFold(key, name) {
					return false
				}
			}
			seen[key] = true
		}
		v, err := dec.Token()
		if err != nil || !exactValue(dec, v) {
			return false
		}
	}
	_, err := dec.Token()
	return err == nil
}

// refReading is what the oracle says the reading of a prefix is.
type refReading struct {
	Found     bool
	Tokens    int64
	Model     string
	Requested string
	ID        string
	Usage     refUsage
}

func refOf(r *refRecord) refReading {
	u := *r.Message.Usage
	return refReading{Found: true, Tokens: u.Input + u.CacheRead + u.CacheCreation,
		Model: r.Message.Model, Requested: r.RequestedModel, ID: r.Message.ID, Usage: u}
}

// refLine decodes one well-formed line: nil when it is not one JSON record.
func refLine(line []byte) *refRecord {
	var r refRecord
	if json.Unmarshal(line, &r) != nil {
		return nil
	}
	return &r
}

// refLast is the reading of data by a forward pass: the last qualifying
// record among its lines (the final line counts even without a newline).
// Lines longer than MaxLine are skipped, as the reader documents.
func refLast(data []byte) refReading {
	var last refReading
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(line) > MaxLine {
			continue
		}
		if r := refLine(line); r != nil && r.qualifies() {
			last = refOf(r)
		}
	}
	return last
}

// fromReading puts the reader's answer in the oracle's terms.
func fromReading(r Reading, err error) refReading {
	if err != nil {
		return refReading{}
	}
	u := refUsage{Input: r.Usage.InputTokens, CacheCreation: r.Usage.CacheCreationInputTokens,
		CacheRead: r.Usage.CacheReadInputTokens, Output: r.Usage.OutputTokens, Speed: r.Usage.Speed}
	if c := r.Usage.CacheCreation; c != nil {
		u.Split = &struct {
			Eph5m int64 `json:"ephemeral_5m_input_tokens"`
			Eph1h int64 `json:"ephemeral_1h_input_tokens"`
		}{c.Ephemeral5m, c.Ephemeral1h}
	}
	return refReading{Found: true, Tokens: r.Tokens, Model: r.Model, Requested: r.RequestedModel, ID: r.MessageID, Usage: u}
}

func sameReading(a, b refReading) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// realTranscripts returns every *.jsonl under ../shared/data/transcripts
// beside the repository, subagent files included, or skips the test.
func realTranscripts(tb testing.TB) []string {
	tb.Helper()
	root, files := findTranscripts()
	if len(files) == 0 {
		tb.Skipf("no real transcripts in %s (the shared data folder is absent)", root)
	}
	return files
}

// findTranscripts finds the real transcripts: the folder where they
// belong and the files there, none when it is absent.
func findTranscripts() (root string, files []string) {
	root, err := sharedtest.Dir()
	if err != nil {
		return "../shared/data/transcripts beside the repository", nil
	}
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".jsonl" {
			files = append(files, path)
		}
		return nil
	})
	return root, files
}
