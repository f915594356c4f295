package transcript

import (
	"bytes"
	"strings"
)

// The filter words: what a line must hold to be worth decoding. Searching
// is much cheaper than decoding, and most of a transcript's bytes are tool
// results and progress records that no reader needs. Each word is JSON
// structure with its quotes (a quote inside a string value is escaped), so
// prose cannot fake one. Every reader of transcripts filters with these,
// so that they all decode the same lines. They are constants, not byte
// slices: a []byte variable is built at package initialisation, which
// every hook call would pay; a constant converted where it is searched
// costs nothing on the heap.
const (
	// AssistantWord is in every assistant record: the only lines that can
	// hold a response.
	AssistantWord = `"assistant"`
	// BoundaryWord ends the subtype of compact_boundary and
	// microcompact_boundary records.
	BoundaryWord = `_boundary"`
	// APIRequestWord is in api-request records, whose betas tell the 1M
	// window.
	APIRequestWord = `"api-request"`
	// Beta1MWord starts the 1M-window beta in an api-request record's
	// betas ("context-1m-2025-08-07").
	Beta1MWord = `"context-1m-`
	// UserWord, ToolResultWord and TextWord pick operator prompts: a user
	// record of tool results with no text block is none.
	UserWord       = `"user"`
	ToolResultWord = `"tool_result"`
	TextWord       = `"text"`
	// CostStateWord is in Claude Code's cost-state records.
	CostStateWord = `"cost-state"`
	// StopReasonStringWord starts a stop_reason written as a string; null
	// or none leaves a response open.
	StopReasonStringWord = `"stop_reason":"`
)

// MayHoldHistory reports whether a line may hold a record the cost
// history needs: a response, a compaction boundary or an API request.
func MayHoldHistory(line []byte) bool {
	return bytes.Contains(line, []byte(AssistantWord)) || bytes.Contains(line, []byte(BoundaryWord)) ||
		bytes.Contains(line, []byte(APIRequestWord))
}

// MayHoldPrompt reports whether a line may hold an operator prompt: a
// user record that is not only tool results.
func MayHoldPrompt(line []byte) bool {
	return bytes.Contains(line, []byte(UserWord)) &&
		(!bytes.Contains(line, []byte(ToolResultWord)) || bytes.Contains(line, []byte(TextWord)))
}

// Asks1M reports whether a requested model asks for the 1M window: its
// name ends in [1m], in any case (claude-opus-4-6[1m]).
func Asks1M(requestedModel string) bool {
	return strings.HasSuffix(strings.ToLower(requestedModel), "[1m]")
}

// Says1M reports whether a decoded record of line says the 1M window is
// on: an api-request record whose betas include the 1M beta.
func Says1M(r *Record, line []byte) bool {
	return r.Type == "api-request" && bytes.Contains(line, []byte(Beta1MWord))
}
