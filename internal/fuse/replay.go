package fuse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
)

// Outcome is what the fuse would have done in one past session, for
// replay: where it would have warned and halted at a session cap counted
// from launch, and where a loop of one tool call would have halted it.
type Outcome struct {
	// Cap is the session cap replayed ("" with a loop alone).
	Cap string `json:"cap,omitempty"`
	// Warn and Halt are the responses after which the spend passed 80%
	// and 100% of the cap; the fuse acts at the next tool call.
	Warn *Event `json:"warn,omitempty"`
	Halt *Event `json:"halt,omitempty"`
	// Loop is the tool call at which a run of Loop identical calls would
	// have halted the session, with LoopLength the run replayed.
	Loop       *Event `json:"loop,omitempty"`
	LoopLength int    `json:"loop_length,omitempty"`
	// Burns are the responses after which the spend of the last 5
	// minutes reached BurnUSD, one per spell: the fuse warns once a
	// spell, at the next tool call, and a spell ends when the rate falls
	// back under the line.
	BurnUSD float64 `json:"burn_usd,omitempty"`
	Burns   []Event `json:"burns,omitempty"`
	// Spent is the whole session's spend, subagents included.
	Spent Sum `json:"spent"`
}

// Event locates one act of the fuse in a session.
type Event struct {
	// Response counts the session's own responses from 0, as the rest of
	// replay does; a subagent's response is placed after the own response
	// before it in time.
	Response int `json:"response"`
	// At is the response's timestamp.
	At string `json:"at,omitempty"`
	// SpentUSD and Tokens are the session's spend there.
	SpentUSD float64 `json:"spent_usd"`
	Tokens   int64   `json:"tokens"`
	// Call names the repeated call of a loop.
	Call string `json:"call,omitempty"`
	// WindowUSD is a burn warning's spend over the 5 minutes before it.
	WindowUSD float64 `json:"window_usd,omitempty"`
}

// Describe writes an outcome in one line, as the table and the HTML
// report show it.
func (o *Outcome) Describe() string {
	var parts []string
	if o.Cap != "" {
		if o.Warn != nil {
			parts = append(parts, fmt.Sprintf("warn@%d $%.2f", o.Warn.Response, o.Warn.SpentUSD))
		}
		if o.Halt != nil {
			parts = append(parts, fmt.Sprintf("halt@%d $%.2f", o.Halt.Response, o.Halt.SpentUSD))
		}
		if o.Warn == nil && o.Halt == nil {
			parts = append(parts, fmt.Sprintf("under %s ($%.2f)", o.Cap, o.Spent.USD))
		}
	}
	if o.Loop != nil {
		parts = append(parts, fmt.Sprintf("loop@%d %s ×%d", o.Loop.Response, o.Loop.Call, o.LoopLength))
	}
	for _, b := range o.Burns {
		parts = append(parts, fmt.Sprintf("burn@%d $%.2f/5m", b.Response, b.WindowUSD))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// replayed is one response met in a replay.
type replayed struct {
	id, at string
	own    bool
	sum    Sum
}

// ReplaySession replays the fuse over one session's transcripts: main
// first, then its subagents'. cap may be zero (no cap), loop 0 (off) and
// burn, the spend per 5 minutes that warns, 0 (off).
func ReplaySession(main string, subs []string, cap tuning.Amount, loop int, burn float64, price Pricer) Outcome {
	o := Outcome{LoopLength: loop, BurnUSD: burn}
	if !cap.IsZero() {
		o.Cap = cap.String()
	}
	var all []replayed
	index := map[string]int{} // message id → position in all
	own := 0                  // own responses so far, for the loop's place
	run := struct {
		sig   string
		count int
	}{}
	seenTool := map[string]bool{}
	for fi, name := range append([]string{main}, subs...) {
		f, _, err := reading.Open(name)
		if err != nil {
			continue
		}
		r := reading.NewReader(f)
		r.Final = true
		for {
			line, err := r.Next()
			if err != nil {
				break
			}
			if !bytes.Contains(line, []byte(`"assistant"`)) {
				continue
			}
			transcript.Decode(line, func(rec *transcript.Record) {
				if rec.Type != "assistant" || rec.Message == nil || rec.Message.Model == transcript.Synthetic {
					return
				}
				m := rec.Message
				if m.Usage != nil {
					s, _ := price.sum(m)
					isOwn := fi == 0 && !rec.IsSidechain
					if i, ok := index[m.ID]; ok && m.ID != "" {
						// The last record of an id counts; a response in two
						// files counts once, where it was first seen.
						if all[i].own == isOwn || fi == 0 {
							all[i].sum = s
						}
					} else {
						if isOwn {
							own++
						}
						if m.ID != "" {
							index[m.ID] = len(all)
						}
						all = append(all, replayed{id: m.ID, at: rec.Timestamp, own: isOwn, sum: s})
					}
				}
				if fi == 0 && !rec.IsSidechain && loop > 0 && o.Loop == nil {
					for _, tu := range toolUses(m.Content) {
						if seenTool[tu.ID] {
							continue
						}
						seenTool[tu.ID] = true
						sig := Signature(tu.Name, tu.Input)
						if sig == run.sig {
							run.count++
						} else {
							run.sig, run.count = sig, 1
						}
						if run.count >= loop && o.Loop == nil {
							o.Loop = &Event{Response: max(own-1, 0), At: rec.Timestamp, Call: Describe(tu.Name, tu.Input)}
						}
					}
				}
			})
		}
		f.Close()
	}
	// Own responses first come in file order; subagents' fall in by time.
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].at != "" && all[j].at != "" {
			return all[i].at < all[j].at
		}
		return false
	})
	ownIdx := -1
	var total Sum
	// The burn rate as the hook reads it from its tally (decide.go): the
	// spend by UTC minute, summed over the minutes from five before the
	// check, the check at each response's time.
	minutes := map[int64]float64{}
	spell := false
	for _, r := range all {
		if r.own {
			ownIdx++
		}
		total = total.Add(r.sum)
		if burn > 0 {
			if at, err := time.Parse(time.RFC3339Nano, r.at); err == nil {
				minutes[at.Unix()/60] += r.sum.USD
				from := at.Add(-burnWindow).Unix() / 60
				window := 0.0
				for m, usd := range minutes {
					if m >= from {
						window += usd
					}
				}
				switch {
				case window >= burn && !spell:
					spell = true
					o.Burns = append(o.Burns, Event{Response: max(ownIdx, 0), At: r.at, SpentUSD: total.USD, Tokens: total.Tokens, WindowUSD: window})
				case window < burn:
					spell = false
				}
			}
		}
		if cap.IsZero() {
			continue
		}
		ev := &Event{Response: max(ownIdx, 0), At: r.at, SpentUSD: total.USD, Tokens: total.Tokens}
		share := shareOf(cap, total)
		if o.Warn == nil && share >= warnShare && share < 1 {
			o.Warn = ev
		}
		if o.Halt == nil && share >= 1 {
			o.Halt = ev
		}
	}
	o.Spent = total
	return o
}

type toolUse struct {
	ID    string          `json:"id"`
	Type  string          `json:"type"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// toolUses returns the tool_use blocks of a message's content.
func toolUses(content json.RawMessage) []toolUse {
	if len(content) == 0 || content[0] != '[' {
		return nil
	}
	var blocks []toolUse
	if json.Unmarshal(content, &blocks) != nil {
		return nil
	}
	out := blocks[:0]
	for _, b := range blocks {
		if b.Type == "tool_use" && b.Name != "" {
			out = append(out, b)
		}
	}
	return out
}

// Summary totals the outcomes of a replay.
type Summary struct {
	Cap        string  `json:"cap,omitempty"`
	LoopLength int     `json:"loop_length,omitempty"`
	BurnUSD    float64 `json:"burn_usd,omitempty"`
	Sessions   int     `json:"sessions"`
	Warned     int     `json:"warned"`
	Halted     int     `json:"halted"`
	Loops      int     `json:"loops"`
	// Burned counts the sessions with a burn warning, Burns the warnings.
	Burned int `json:"burned,omitempty"`
	Burns  int `json:"burns,omitempty"`
	// SpentAfterHaltUSD is what the halted sessions spent past their halt:
	// what the cap would have saved, at most (the fuse acts one response
	// behind).
	SpentAfterHaltUSD float64 `json:"spent_after_halt_usd"`
}

// Summarize totals outcomes.
func Summarize(cap tuning.Amount, loop int, burn float64, outs []*Outcome) Summary {
	s := Summary{LoopLength: loop, BurnUSD: burn}
	if !cap.IsZero() {
		s.Cap = cap.String()
	}
	for _, o := range outs {
		if o == nil {
			continue
		}
		s.Sessions++
		if o.Warn != nil {
			s.Warned++
		}
		if o.Halt != nil {
			s.Halted++
			s.SpentAfterHaltUSD += o.Spent.USD - o.Halt.SpentUSD
		}
		if o.Loop != nil {
			s.Loops++
		}
		if len(o.Burns) > 0 {
			s.Burned++
			s.Burns += len(o.Burns)
		}
	}
	return s
}

// Describe writes a summary in one line.
func (s Summary) Describe() string {
	var parts []string
	if s.Cap != "" {
		parts = append(parts, fmt.Sprintf("at a %s session cap %d of %d sessions would have warned and %d halted ($%.2f spent past the halts)",
			s.Cap, s.Warned, s.Sessions, s.Halted, s.SpentAfterHaltUSD))
	}
	if s.LoopLength > 0 {
		parts = append(parts, fmt.Sprintf("%d would have halted on %d identical calls in a row", s.Loops, s.LoopLength))
	}
	if s.BurnUSD > 0 {
		parts = append(parts, fmt.Sprintf("%d would have had a burn warning at $%.2f per 5 minutes (%d warnings)", s.Burned, s.BurnUSD, s.Burns))
	}
	return strings.Join(parts, "; ")
}
