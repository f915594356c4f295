// Package orientation reads what a Claude Code session spent, from its
// transcript and its subagents' files, and measures its orientation: what
// it spent before it first acted (design §8).
//
// Acting is an Edit, Write or NotebookEdit of a file inside the session's
// root (the cwd of its first own response) and not under tmp/; an
// AskUserQuestion or ExitPlanMode; or the session's own response that
// ends the turn: stop_reason end_turn, or, where the transcript leaves
// stop_reason empty (older versions write null on every record), the last
// own response before the next operator prompt. A subagent's edit counts
// (delegated work is the session starting work); a subagent's end of turn
// does not (it only hands its result back). The phase's spend is every
// response before the acting one, subagents included, in timestamp order;
// the acting response itself is left out. After each compaction boundary
// the same measure starts again: a reorientation.
package orientation

import (
	"bytes"
	"encoding/json"
	"io"

	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/window"
)

// Response is one API response: the records of one message.id, the last
// record's usage winning (output counts grow across them).
type Response struct {
	ID    string
	Stamp string
	Time  time.Time
	// Seq orders responses of equal time: file order, main file first.
	Seq   int
	Model string
	Usage transcript.Usage
	// Sub marks a subagent's response (its own file, or an old inline
	// sidechain record).
	Sub bool
	// StopReason is the last non-empty stop_reason of the id's records.
	StopReason string
	// Acts are the acting tool calls the response made.
	Acts []transcript.ToolUse
	// Cwd is the record's working directory.
	Cwd string
	// File numbers the file the response came from: 0 for the main one.
	File int
}

// Event is something in the main transcript other than a response that
// the phases need: an operator prompt or a compaction boundary.
type Event struct {
	// After is the number of main-file responses seen before the event.
	After int
	// Prompt is an operator prompt's text (normalised).
	Prompt string
	// Boundary marks a compaction or microcompaction, with the Claude
	// Code version that wrote it and the session's window then.
	Boundary  bool
	Stamp     string
	Trigger   string
	PreTokens int64
	Version   string
	Window    int64
}

// Session is what the transcript files of one session hold.
type Session struct {
	ID string
	// Branch and Cwd come from the first own response (the cwd is the
	// session's root for the acting rules).
	Branch, Cwd string
	// OpeningPrompt is the first operator prompt, normalised.
	OpeningPrompt string
	// Responses are in file order: the main file's, then each subagent
	// file's (sorted by name).
	Responses []Response
	// Events are the main file's prompts and boundaries, in order.
	Events []Event
	// ClaudeCodeTotalUSD is the last cost-state total, nil if none.
	ClaudeCodeTotalUSD *float64
	// SubagentFiles lists the subagent files read.
	SubagentFiles []string
	dir           string // tests: the folder the session was written to
}

// Read reads a session: the main transcript and its subagent files. A
// subagent file that cannot be opened is skipped; a main transcript that
// cannot be opened is an error.
func Read(transcriptPath string) (*Session, error) {
	return read(transcriptPath, false)
}

// ReadOrientation reads as much of a session as its orientation phase
// needs: the main transcript up to its first own response that may act (or
// the first operator prompt after a response), and the subagent files. The
// Session it returns gives the same Orientation as Read's, at a cost that
// does not grow with the rest of the transcript; its totals are partial.
func ReadOrientation(transcriptPath string) (*Session, error) {
	return read(transcriptPath, true)
}

// ReadOrientationFrom is ReadOrientation of a main transcript held in
// memory — the prefix of a file as it stood after some response, which is
// what the hook read at that moment and what replay holds while it walks
// the file — with the subagent files beside transcriptPath.
func ReadOrientationFrom(main []byte, transcriptPath string) *Session {
	s, _ := scan(bytes.NewReader(main), transcriptPath, true) // memory reads without error
	return s
}

func read(transcriptPath string, stopAtActing bool) (*Session, error) {
	f, _, err := reading.Open(transcriptPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return scan(f, transcriptPath, stopAtActing)
}

// scan reads a session from its main transcript, main, and the subagent
// files beside transcriptPath, skipping any that cannot be opened.
func scan(main io.Reader, transcriptPath string, stopAtActing bool) (*Session, error) {
	sc := newScanner()
	sc.stopAtActing = stopAtActing
	if err := sc.file(main, false); err != nil {
		return nil, err
	}
	for _, name := range transcript.SubagentFiles(transcriptPath) {
		g, _, err := reading.Open(name)
		if err != nil {
			continue
		}
		sc.fileNo++
		sc.file(g, true)
		g.Close()
		sc.s.SubagentFiles = append(sc.s.SubagentFiles, name)
	}
	return sc.finish(), nil
}

type scanner struct {
	s Session
	// stopAtActing ends the main file's scan once its first own response
	// that may act is seen (ReadOrientation); acted records that.
	stopAtActing, acted bool
	byID                map[string]int
	seq                 int
	// mainResponses counts the main file's own responses so far.
	mainResponses int
	// lastMain indexes the main file's latest own response, -1 before one.
	lastMain int
	fileNo   int
	// saw1M: the main file showed the 1M window so far.
	saw1M bool
}

func newScanner() *scanner {
	return &scanner{byID: map[string]int{}, lastMain: -1}
}

// file reads one transcript file line by line, through the one forward
// reader (lines past reading.MaxLine skipped, as the hook skips them). A
// past session's file is complete: its last line counts without its
// newline.
func (sc *scanner) file(r io.Reader, sub bool) error {
	rd := reading.NewReader(r)
	rd.Final = true
	for {
		if sc.acted && !sub {
			return nil
		}
		line, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if len(line) > 0 {
			sc.line(line, sub)
		}
	}
}

// worthDecoding reports whether a line may hold a response, a boundary or
// an operator prompt (the filter words are transcript's).
func worthDecoding(line []byte) bool {
	return bytes.Contains(line, []byte(transcript.AssistantWord)) || bytes.Contains(line, []byte(transcript.BoundaryWord)) ||
		transcript.MayHoldPrompt(line)
}

func (sc *scanner) line(line []byte, sub bool) {
	if !sub && bytes.Contains(line, []byte(transcript.CostStateWord)) {
		sc.costState(line)
	}
	if !sub && bytes.Contains(line, []byte(transcript.Beta1MWord)) && bytes.Contains(line, []byte(transcript.APIRequestWord)) {
		sc.saw1M = true
	}
	if !worthDecoding(line) {
		return
	}
	transcript.Decode(line, func(r *transcript.Record) {
		sc.seq++
		switch r.Type {
		case "assistant":
			sc.assistant(r, sub)
		case "user":
			if !sub {
				sc.user(r)
			}
		case "system":
			if !sub && r.IsBoundary() {
				ev := Event{After: sc.mainResponses, Boundary: true, Stamp: r.Timestamp, Version: r.Version}
				if m := r.CompactMetadata; m != nil {
					ev.Trigger, ev.PreTokens = m.Trigger, m.PreTokens
					ev.Window = window.WindowAt(m.PreTokens, sc.saw1M)
				} else if m := r.MicrocompactMetadata; m != nil {
					ev.Trigger, ev.PreTokens = "micro", m.PreTokens
				}
				sc.s.Events = append(sc.s.Events, ev)
			}
		}
	})
}

// costStateRecord is the part of a cost-state record read: Claude Code's
// running total of the session's cost. The field's name is not
// documented; the spellings seen or plausible are all tried.
type costStateRecord struct {
	Type          string   `json:"type"`
	TotalCostUSD  *float64 `json:"totalCostUSD"`
	TotalCostUsd  *float64 `json:"totalCostUsd"`
	TotalCostSnak *float64 `json:"total_cost_usd"`
	CostUSD       *float64 `json:"costUSD"`
}

func (sc *scanner) costState(line []byte) {
	var c costStateRecord
	if json.Unmarshal(line, &c) != nil || c.Type != "cost-state" {
		return
	}
	for _, v := range []*float64{c.TotalCostUSD, c.TotalCostUsd, c.TotalCostSnak, c.CostUSD} {
		if v != nil && *v >= 0 {
			x := *v
			sc.s.ClaudeCodeTotalUSD = &x
			return
		}
	}
}

func (sc *scanner) assistant(r *transcript.Record, sub bool) {
	if !r.HasUsage() {
		return
	}
	m := r.Message
	sub = sub || r.IsSidechain
	if !sub && (m.Usage.Context() > window.Standard || transcript.Asks1M(r.RequestedModel)) {
		sc.saw1M = true
	}
	acts := transcript.ActingCalls(m.Content)
	if i, ok := sc.byID[m.ID]; ok && m.ID != "" {
		resp := &sc.s.Responses[i]
		if resp.Sub != sub {
			return // the same response copied into another file: count it once
		}
		resp.Usage = *m.Usage
		if m.StopReason != "" {
			resp.StopReason = m.StopReason
		}
		resp.Acts = append(resp.Acts, acts...)
		sc.checkActed(resp)
		return
	}
	resp := Response{
		ID: m.ID, Stamp: r.Timestamp, Seq: sc.seq, Model: m.Model, Usage: *m.Usage,
		Sub: sub, StopReason: m.StopReason, Acts: acts, Cwd: r.Cwd, File: sc.fileNo,
	}
	resp.Time, _ = time.Parse(time.RFC3339Nano, r.Timestamp)
	if m.ID != "" {
		sc.byID[m.ID] = len(sc.s.Responses)
	}
	sc.s.Responses = append(sc.s.Responses, resp)
	if !sub {
		sc.lastMain = len(sc.s.Responses) - 1
		sc.mainResponses++
		if sc.s.Cwd == "" && sc.mainResponses == 1 {
			sc.s.Cwd, sc.s.Branch = r.Cwd, r.GitBranch
		}
	}
	if sc.s.ID == "" {
		sc.s.ID = r.SessionID
	}
	sc.checkActed(&sc.s.Responses[len(sc.s.Responses)-1])
}

// checkActed notes a main response that may end the orientation: what
// follows it in the main file cannot change the orientation phase.
func (sc *scanner) checkActed(r *Response) {
	if !sc.stopAtActing || r.Sub {
		return
	}
	if _, _, ok := ownAct(sc.s.Cwd, r.StopReason, r.Acts); ok {
		sc.acted = true
	}
}

func (sc *scanner) user(r *transcript.Record) {
	if sc.s.ID == "" {
		sc.s.ID = r.SessionID
	}
	text, ok := operatorPrompt(r)
	if !ok {
		return
	}
	sc.s.Events = append(sc.s.Events, Event{After: sc.mainResponses, Prompt: text, Stamp: r.Timestamp})
	if sc.stopAtActing && sc.lastMain >= 0 && sc.s.Responses[sc.lastMain].StopReason == "" {
		sc.acted = true
	}
	if sc.s.OpeningPrompt == "" {
		sc.s.OpeningPrompt = text
	}
}

// finish gives a response with no readable timestamp the time of the one
// before it in its file, so that it keeps its place in the timeline.
func (sc *scanner) finish() *Session {
	var last time.Time
	file := -1
	for i := range sc.s.Responses {
		r := &sc.s.Responses[i]
		if r.File != file {
			file, last = r.File, time.Time{}
		}
		if r.Time.IsZero() {
			r.Time = last
		}
		last = r.Time
	}
	return &sc.s
}
