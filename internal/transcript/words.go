package transcript

import "bytes"

// The filter words: what a line must hold to be worth decoding. Searching
// is much cheaper than decoding, and most of a transcript's bytes are tool
// results and progress records that no reader needs. Each word is JSON
// structure with its quotes (a quote inside a string value is escaped), so
// prose cannot fake one. Every reader of transcripts filters with these,
// so that they all decode the same lines.
var (
	// AssistantWord is in every assistant record: the only lines that can
	// hold a response.
	AssistantWord = []byte(`"assistant"`)
	// BoundaryWord ends the subtype of compact_boundary and
	// microcompact_boundary records.
	BoundaryWord = []byte(`_boundary"`)
	// APIRequestWord is in api-request records, whose betas tell the 1M
	// window.
	APIRequestWord = []byte(`"api-request"`)
	// Beta1MWord starts the 1M-window beta in an api-request record's
	// betas ("context-1m-2025-08-07").
	Beta1MWord = []byte(`"context-1m-`)
	// UserWord, ToolResultWord and TextWord pick operator prompts: a user
	// record of tool results with no text block is none.
	UserWord       = []byte(`"user"`)
	ToolResultWord = []byte(`"tool_result"`)
	TextWord       = []byte(`"text"`)
	// CostStateWord is in Claude Code's cost-state records.
	CostStateWord = []byte(`"cost-state"`)
	// StopReasonStringWord starts a stop_reason written as a string; null
	// or none leaves a response open.
	StopReasonStringWord = []byte(`"stop_reason":"`)
)

// MayHoldHistory reports whether a line may hold a record the cost
// history needs: a response, a compaction boundary or an API request.
func MayHoldHistory(line []byte) bool {
	return bytes.Contains(line, AssistantWord) || bytes.Contains(line, BoundaryWord) ||
		bytes.Contains(line, APIRequestWord)
}

// MayHoldPrompt reports whether a line may hold an operator prompt: a
// user record that is not only tool results.
func MayHoldPrompt(line []byte) bool {
	return bytes.Contains(line, UserWord) &&
		(!bytes.Contains(line, ToolResultWord) || bytes.Contains(line, TextWord))
}

// Says1M reports whether a decoded record of line says the 1M window is
// on: an api-request record whose betas include the 1M beta.
func Says1M(r *Record, line []byte) bool {
	return r.Type == "api-request" && bytes.Contains(line, Beta1MWord)
}
