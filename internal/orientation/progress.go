package orientation

import (
	"bytes"
	"io"
	"os"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
)

// progress is how far a session's files were searched without a sign that
// it acted, so that a session that has not acted (yet) costs each priced
// recompute only its new bytes, not a pass over the whole transcript.
type progress struct {
	// Main is the main transcript's offset past its last complete line
	// searched; Subs the same for each subagent file.
	Main int64            `json:"main"`
	Subs map[string]int64 `json:"subs,omitempty"`
	// Cwd is the session's root, from its first own response.
	Cwd string `json:"cwd,omitempty"`
	// Open says the main file's last own response left stop_reason empty:
	// an operator prompt after it ends the turn.
	Open bool `json:"open,omitempty"`
}

// search reads the complete lines of the file at path from offset from and
// reports whether one shows the session acting, by the rules of Phases
// (for a subagent's file, only its edits), and the offset past the last
// complete line read. A final line without its newline waits for the next
// search; a line past reading.MaxLine is skipped whole, as every reader
// skips it.
//
// It stops after about budget bytes (the caller's share of one call's
// reading): the next search resumes at next.
func (p *progress) search(path string, from int64, sub bool, budget int64) (next int64, acted bool) {
	f, _, err := reading.Open(path)
	if err != nil {
		return from, false
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return from, false
	}
	rd := reading.NewReaderAt(f, from)
	for rd.Offset()-from < budget {
		line, err := rd.Next()
		if err != nil {
			return rd.Offset(), false
		}
		if p.line(line, sub) {
			return rd.Offset(), true
		}
	}
	return rd.Offset(), false
}

// searchSlice bounds the bytes one searchAll reads over all the session's
// files, so that no hook call pays for a whole long transcript: a session
// that has not acted within it is searched further on the next priced
// recompute (lines.PassSlice bounds the history's pass the same way,
// and with the same size: both run inside the hook's pricing deadline).
const searchSlice = 16 << 20

func (p *progress) line(line []byte, sub bool) bool {
	// Each search may run through a tool result of megabytes: search as
	// few words as the line's kind needs.
	isAssistant := bytes.Contains(line, []byte(transcript.AssistantWord))
	sign := isAssistant && transcript.MayAct(line)
	needCwd := !sub && p.Cwd == "" && isAssistant
	prompt := !sub && !isAssistant && transcript.MayHoldPrompt(line)
	if !sub && isAssistant && !sign {
		// Tracked without decoding: a stop reason written as a string
		// closes the response; null or none leaves it open.
		p.Open = !bytes.Contains(line, []byte(transcript.StopReasonStringWord))
	}
	if !sign && !needCwd && !prompt {
		return false
	}
	acted := false
	transcript.Decode(line, func(r *transcript.Record) {
		switch {
		case r.Type == "assistant" && r.Message != nil && r.Message.Usage != nil && r.Message.Model != transcript.Synthetic:
			own := !sub && !r.IsSidechain
			if own && p.Cwd == "" {
				p.Cwd = r.Cwd
			}
			calls := transcript.ActingCalls(r.Message.Content)
			if own {
				p.Open = r.Message.StopReason == ""
				_, _, ok := ownAct(p.Cwd, r.Message.StopReason, calls)
				acted = acted || ok
			} else {
				_, _, ok := editInside(p.Cwd, calls)
				acted = acted || ok
			}
		case r.Type == "user" && !sub && !r.IsMeta && !r.IsSidechain && !r.IsCompactSummary && r.Message != nil:
			if _, ok := promptText(r.Message.Content); ok && p.Open && p.Cwd != "" {
				acted = true
			}
		}
	})
	return acted
}

// searchAll searches the new bytes of the main transcript and of every
// subagent file; the offsets advance either way.
func (p *progress) searchAll(transcriptPath string) (acted bool) {
	if fi, err := os.Stat(transcriptPath); err != nil || fi.Size() < p.Main {
		*p = progress{} // replaced or truncated: start over
	}
	budget := int64(searchSlice)
	next, a := p.search(transcriptPath, p.Main, false, budget)
	budget -= next - p.Main
	p.Main, acted = next, a
	if p.Subs == nil {
		p.Subs = map[string]int64{}
	}
	for _, name := range SubagentFiles(transcriptPath) {
		if budget <= 0 {
			break
		}
		from := p.Subs[name]
		next, a := p.search(name, from, true, budget)
		budget -= next - from
		p.Subs[name] = next
		acted = acted || a
	}
	return acted
}
