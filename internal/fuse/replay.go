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
// replay: at the session cap Cap (counted from launch; "" for none), the
// responses after which the spend passed 80% (Warn) and 100% (Halt) of
// it; the tool call at which a run of LoopLength identical calls would
// have halted it (Loop); the responses after which the spend of the last
// 5 minutes reached BurnUSD, one a spell (Burns); and the whole spend,
// subagents included. The fuse acts at the tool call after each.
type Outcome struct {
	Cap        string  `json:"cap,omitempty"`
	Warn       *Event  `json:"warn,omitempty"`
	Halt       *Event  `json:"halt,omitempty"`
	Loop       *Event  `json:"loop,omitempty"`
	LoopLength int     `json:"loop_length,omitempty"`
	BurnUSD    float64 `json:"burn_usd,omitempty"`
	Burns      []Event `json:"burns,omitempty"`
	Spent      Sum     `json:"spent"`
}

// Event locates one act of the fuse in a session: the session's own
// response it follows, counted from 0 (a subagent's response falls after
// the own response before it in time), its timestamp, the session's
// spend there, the repeated call of a loop, and a burn warning's spend
// over the 5 minutes before it.
type Event struct {
	Response  int     `json:"response"`
	At        string  `json:"at,omitempty"`
	SpentUSD  float64 `json:"spent_usd"`
	Tokens    int64   `json:"tokens"`
	Call      string  `json:"call,omitempty"`
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
	runSig, runCount := "", 0 // the run of identical calls
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
				var blocks []struct {
					ID, Type, Name string
					Input          json.RawMessage
				}
				if fi != 0 || rec.IsSidechain || loop <= 0 || o.Loop != nil || json.Unmarshal(m.Content, &blocks) != nil {
					return
				}
				for _, tu := range blocks {
					if tu.Type != "tool_use" || tu.Name == "" || seenTool[tu.ID] {
						continue
					}
					seenTool[tu.ID] = true
					sig := Signature(tu.Name, tu.Input)
					if sig == runSig {
						runCount++
					} else {
						runSig, runCount = sig, 1
					}
					if runCount >= loop && o.Loop == nil {
						o.Loop = &Event{Response: max(own-1, 0), At: rec.Timestamp, Call: Describe(tu.Name, tu.Input)}
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

// Summary totals the outcomes of a replay. Burned counts the sessions
// with a burn warning, Burns the warnings; SpentAfterHaltUSD is what the
// halted sessions spent past their halt: what the cap would have saved,
// at most (the fuse acts one response behind).
type Summary struct {
	Cap               string  `json:"cap,omitempty"`
	LoopLength        int     `json:"loop_length,omitempty"`
	BurnUSD           float64 `json:"burn_usd,omitempty"`
	Sessions          int     `json:"sessions"`
	Warned            int     `json:"warned"`
	Halted            int     `json:"halted"`
	Loops             int     `json:"loops"`
	Burned            int     `json:"burned,omitempty"`
	Burns             int     `json:"burns,omitempty"`
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
