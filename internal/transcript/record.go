// Package transcript decodes the records of a Claude Code session
// transcript (JSONL) defensively.
//
// The format belongs to Claude Code and changes between versions, so every
// field is optional, unknown record types and fields are ignored, and damage
// seen in real files is tolerated: a half-written final line, two records
// spliced on one line, runs of NUL bytes, lines of several megabytes.
// Nothing here returns an error for bad content; what does not parse is
// skipped.
package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Record is the part of a transcript record this program reads.
type Record struct {
	Type             string   `json:"type"`
	Subtype          string   `json:"subtype"`
	IsSidechain      bool     `json:"isSidechain"`
	IsMeta           bool     `json:"isMeta"`
	IsCompactSummary bool     `json:"isCompactSummary"`
	Timestamp        string   `json:"timestamp"`
	Cwd              string   `json:"cwd"`
	GitBranch        string   `json:"gitBranch"`
	SessionID        string   `json:"sessionId"`
	Version          string   `json:"version"`
	RequestedModel   string   `json:"requestedModel"`
	Message          *Message `json:"message"`
	// CompactMetadata is set on compact_boundary records.
	CompactMetadata *Compaction `json:"compactMetadata"`
	// MicrocompactMetadata is set on microcompact_boundary records.
	MicrocompactMetadata *Compaction `json:"microcompactMetadata"`
}

// Message is the API message inside a user or assistant record.
type Message struct {
	ID         string          `json:"id"`
	Model      string          `json:"model"`
	Role       string          `json:"role"`
	StopReason string          `json:"stop_reason"`
	Content    json.RawMessage `json:"content"`
	Usage      *Usage          `json:"usage"`
}

// Usage is the token accounting of one API response.
type Usage struct {
	InputTokens              int64          `json:"input_tokens"`
	CacheCreationInputTokens int64          `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64          `json:"cache_read_input_tokens"`
	OutputTokens             int64          `json:"output_tokens"`
	CacheCreation            *CacheCreation `json:"cache_creation"`
	Speed                    string         `json:"speed"`
}

// CacheCreation splits cache writes by time to live.
type CacheCreation struct {
	Ephemeral5m int64 `json:"ephemeral_5m_input_tokens"`
	Ephemeral1h int64 `json:"ephemeral_1h_input_tokens"`
}

// Compaction is the metadata of a compaction or microcompaction boundary.
type Compaction struct {
	Trigger   string `json:"trigger"`
	PreTokens int64  `json:"preTokens"`
}

// Synthetic is the model name Claude Code writes on a turn no model served.
const Synthetic = "<synthetic>"

// Context is the number of tokens of context the request carried: all its
// input, cached or not. Output is left out: the next request carries it.
func (u *Usage) Context() int64 {
	return u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens
}

// Write1h and Write5m split the cache writes by time to live. Older
// transcripts have no split; their writes count as 5-minute writes.
func (u *Usage) Write1h() int64 {
	if u.CacheCreation == nil {
		return 0
	}
	return u.CacheCreation.Ephemeral1h
}

// Write5m reports the 5-minute cache writes (see Write1h).
func (u *Usage) Write5m() int64 {
	if u.CacheCreation == nil {
		return u.CacheCreationInputTokens
	}
	return u.CacheCreationInputTokens - u.CacheCreation.Ephemeral1h
}

// HasUsage reports whether r is an assistant response with usage from a
// model (not Claude Code's placeholder), in any chain: what a session and
// its subagents spent is made of these.
func (r *Record) HasUsage() bool {
	return r.Type == "assistant" && r.Message != nil && r.Message.Usage != nil && r.Message.Model != Synthetic
}

// IsResponse reports whether r is a main-chain assistant response with
// usage: the records the reading and the cost history are made of.
func (r *Record) IsResponse() bool {
	return r.HasUsage() && !r.IsSidechain
}

// IsBoundary reports whether r marks a compaction or a microcompaction,
// after which the context is smaller.
func (r *Record) IsBoundary() bool {
	return r.Type == "system" && (r.Subtype == "compact_boundary" || r.Subtype == "microcompact_boundary")
}

// Decode calls fn for every record in one line of a transcript. A line
// normally holds one record, but damaged files splice two on one line or
// carry NUL runs; every complete object that decodes is passed on, and the
// rest is skipped. fn must not keep r past its return.
func Decode(line []byte, fn func(r *Record)) {
	var r Record
	switch decodeRecord(line, &r) {
	case whole:
		fn(&r)
	case damaged:
		decodeDamaged(line, fn)
	}
}

// outcome is what decodeRecord made of a JSON text.
type outcome int

const (
	whole   outcome = iota // one record
	skip                   // valid JSON, but no record to trust
	damaged                // not valid JSON
)

// decodeRecord decodes one JSON text as a record. A field of an unexpected
// type reads as absent, as encoding/json leaves it, so that a format change
// in a field nobody reads does not hide every record of a new version; but
// a record whose type, chain, message id, model or usage is of an
// unexpected type is skipped rather than read with zeros (see core).
func decodeRecord(data []byte, r *Record) outcome {
	err := json.Unmarshal(data, r)
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
	case errors.As(err, &typeErr):
		var c core
		if json.Unmarshal(data, &c) != nil {
			return skip
		}
	default:
		return damaged
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return skip
	}
	return whole
}

// core holds the fields of a record whose zero value would be misread (a
// sidechain response as the main chain's, an unreadable usage as a
// compaction); they must all have their expected types. Others read as
// absent do no harm: a subtype that is not a string is no boundary.
type core struct {
	Type        string `json:"type"`
	IsSidechain bool   `json:"isSidechain"`
	Message     *struct {
		ID    string `json:"id"`
		Model string `json:"model"`
		Usage *Usage `json:"usage"`
	} `json:"message"`
}

// maxAttempts bounds the work spent on one damaged line: each failed attempt
// may scan to the end of the line, so an adversarial line would otherwise
// cost quadratic time.
const maxAttempts = 64

func decodeDamaged(line []byte, fn func(r *Record)) {
	Spliced(line, func(rest []byte) (int, bool) {
		dec := json.NewDecoder(bytes.NewReader(rest))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, false
		}
		var r Record
		if decodeRecord(raw, &r) == whole {
			fn(&r)
		}
		return int(dec.InputOffset()), true
	})
}

// Spliced walks a damaged line, one that is not one JSON text, for the
// records in it: at each place one may start ({"), first to last, next
// decodes the one JSON value rest starts with and returns its length, or
// false when none starts there (the search goes on a byte later). It is
// the one rule for damaged lines: the tail's reader applies it too.
func Spliced(line []byte, next func(rest []byte) (n int, ok bool)) {
	rest := line
	for range maxAttempts {
		i := bytes.Index(rest, []byte(`{"`))
		if i < 0 {
			return
		}
		rest = rest[i:]
		n, ok := next(rest)
		if !ok {
			n = 1
		}
		rest = rest[n:]
	}
}

// SubagentFiles lists the transcripts of a session's subagents, which
// Claude Code writes beside the session's own: <transcript without
// .jsonl>/subagents/*.jsonl, sorted.
func SubagentFiles(transcriptPath string) []string {
	files, _ := SubagentFilesMax(transcriptPath, 0)
	return files
}

// subagentDir is the folder Claude Code writes a session's subagents'
// transcripts in: <transcript without .jsonl>/subagents.
func subagentDir(transcriptPath string) string {
	return filepath.Join(strings.TrimSuffix(transcriptPath, ".jsonl"), "subagents")
}

// SubagentFile is the transcript of the session's subagent agent:
// <transcript without .jsonl>/subagents/agent-<agent>.jsonl. agent must
// be a plain name (the caller checks it).
func SubagentFile(transcriptPath, agent string) string {
	return filepath.Join(subagentDir(transcriptPath), "agent-"+agent+".jsonl")
}

// SubagentFilesMax is SubagentFiles reading at most max names of the
// folder (0: no bound), so that a folder of a million files costs a
// bounded read; more reports that it held others.
func SubagentFilesMax(transcriptPath string, max int) (files []string, more bool) {
	dir := subagentDir(transcriptPath)
	f, err := os.Open(dir)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	n := -1
	if max > 0 {
		n = max + 1
	}
	names, _ := f.Readdirnames(n)
	if max > 0 && len(names) > max {
		names, more = names[:max], true
	}
	for _, name := range names {
		if strings.HasSuffix(name, ".jsonl") {
			files = append(files, filepath.Join(dir, name))
		}
	}
	sort.Strings(files)
	return files, more
}
