package transcript

import (
	"bytes"
	"encoding/json"
	"slices"
)

// The tools design §8 counts as acting: those that write a file (acting
// only on a file inside the session's root and not under tmp/), and those
// that hand the turn to the operator. Orientation, its incremental search
// and the forecast's pace all end at the first act, so they share these
// lists and the rule below.
var (
	EditTools = []string{"Edit", "Write", "MultiEdit", "NotebookEdit"}
	AskTools  = []string{"AskUserQuestion", "ExitPlanMode"}
)

// EndTurn is the stop_reason of a response that ends the turn: an act.
const EndTurn = "end_turn"

// ToolUse is one tool call of a response, as far as acting needs it.
type ToolUse struct {
	Name string
	// Path is the file an edit tool touched (file_path, or notebook_path
	// for NotebookEdit).
	Path string
}

// Edits reports whether the call writes a file: it acts when that file is
// inside the session's root (the caller's path rule).
func (t ToolUse) Edits() bool { return slices.Contains(EditTools, t.Name) }

// Asks reports whether the call hands the turn to the operator: it acts.
func (t ToolUse) Asks() bool { return slices.Contains(AskTools, t.Name) }

// Block is the part of a content block the readers use.
type Block struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Name  string `json:"name"`
	Input struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	} `json:"input"`
}

// Blocks decodes a message's content when it is an array of blocks; a
// string or anything unreadable gives none.
func Blocks(raw json.RawMessage) []Block {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var bs []Block
	if json.Unmarshal(raw, &bs) != nil {
		return nil
	}
	return bs
}

// ActingCalls returns the calls of acting tools in a message's content,
// in order. Content that names no acting tool is not decoded.
func ActingCalls(content json.RawMessage) []ToolUse {
	if !MayAct(content) {
		return nil
	}
	var calls []ToolUse
	for _, b := range Blocks(content) {
		if b.Type != "tool_use" {
			continue
		}
		t := ToolUse{Name: b.Name, Path: b.Input.FilePath}
		if b.Name == "NotebookEdit" {
			t.Path = b.Input.NotebookPath
		}
		if t.Edits() || t.Asks() {
			calls = append(calls, t)
		}
	}
	return calls
}

// MayAct reports whether b (a line, or a message's content) may show an
// act: it holds an acting tool's name or the end of turn as a JSON string.
func MayAct(b []byte) bool {
	for _, names := range [][]string{EditTools, AskTools, {EndTurn}} {
		for _, n := range names {
			if bytes.Contains(b, []byte(`"`+n+`"`)) {
				return true
			}
		}
	}
	return false
}

// Acts reports whether a response acts, leaving out the path rule: it
// ends the turn or calls a tool that edits, asks the operator or leaves
// plan mode. The forecast's pace needs only this phase; orientation adds
// that an edit must touch a file inside the root.
func (m *Message) Acts() bool {
	if m.StopReason == EndTurn {
		return true
	}
	return len(ActingCalls(m.Content)) > 0
}
