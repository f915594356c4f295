// Package spool is where the programs that run in and around a session
// leave what they have to say of it for the programs that report it: the
// hook each notice it gives, `context-budget run` how each session of its
// chain ended. The Stop hook puts the notices in the session's ledger row;
// the telemetry exporter (context-budget-telemetry) sends every record to
// the team's collector. Neither the hook nor run links the exporter.
//
// A session's spool is <state dir>/<session_id>.events, one JSON object a
// line, only ever appended to (a short line written with O_APPEND lands
// whole beside a parallel writer's). Readers skip a line they cannot
// read, and stop at MaxRecords.
package spool

import (
	"bytes"
	"encoding/json"
	"path/filepath"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/ledger"
)

// The kinds of record.
const (
	KindNotice       = "notice"
	KindChainSession = "chain_session"
)

// MaxRecords bounds the records read from one spool.
const MaxRecords = 1024

// Record is one line of a spool: a notice, or a session's end in a chain.
type Record struct {
	Kind   string         `json:"kind"`
	Notice *ledger.Notice `json:"notice,omitempty"`
	Chain  *ChainSession  `json:"chain,omitempty"`
}

// ChainSession is how one session of a relay chain ended, as the runner
// saw it.
type ChainSession struct {
	// Chain is the chain's id; Place the session's, 1 for the first.
	Chain string `json:"chain"`
	Place int    `json:"place"`
	// Ended says how it ended ("handed over", "finished", "halted", …);
	// HandedOver is set when it committed a hand-over summary.
	Ended      string `json:"ended"`
	HandedOver bool   `json:"handedOver"`
	// CostUSD is what it cost at API rates; Exit is claude's exit status.
	CostUSD float64 `json:"costUsd"`
	Exit    int     `json:"exit"`
	// At is when it ended (RFC 3339, UTC).
	At string `json:"at"`
}

// File is a session's spool in the state folder dir.
func File(dir, session string) string {
	return filepath.Join(dir, session+state.EventsSuffix)
}

// Notice appends a notice to the session's spool.
func Notice(dir, session string, n ledger.Notice) error {
	return add(dir, session, Record{Kind: KindNotice, Notice: &n})
}

// Chain appends a chain session's end to the session's spool.
func Chain(dir, session string, c ChainSession) error {
	return add(dir, session, Record{Kind: KindChainSession, Chain: &c})
}

func add(dir, session string, r Record) error {
	if !state.PlainName(session) {
		return state.ErrName
	}
	if err := state.Ensure(dir); err != nil {
		return err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return state.Append(File(dir, session), append(data, '\n'))
}

// Read returns the session's records, oldest first: none when it has no
// spool or the spool does not read. A line that is not a record of a
// known kind, or whose figures are out of range, is skipped.
func Read(dir, session string) []Record {
	if !state.PlainName(session) {
		return nil
	}
	data, err := reading.ReadFile(File(dir, session), reading.MaxEvents)
	if err != nil {
		return nil
	}
	var out []Record
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		if len(out) == MaxRecords {
			break
		}
		var r Record
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &r) != nil || !r.valid() {
			continue
		}
		out = append(out, r)
	}
	return out
}

// valid reports whether a record read is one of its kind, in range.
func (r *Record) valid() bool {
	switch r.Kind {
	case KindNotice:
		return r.Notice != nil && r.Chain == nil && r.Notice.Check() == nil &&
			(r.Notice.Level == ledger.LevelWarn || r.Notice.Level == ledger.LevelPause)
	case KindChainSession:
		c := r.Chain
		return c != nil && r.Notice == nil && state.PlainName(c.Chain) && len(c.Chain) <= ledger.MaxChain &&
			c.Place >= 1 && c.Place <= ledger.MaxPlace && len(c.Ended) <= ledger.MaxNoticeText &&
			len(c.At) <= ledger.MaxNoticeText && ledger.CostOK(c.CostUSD)
	}
	return false
}

// Notices returns the notices among records, oldest first.
func Notices(records []Record) []ledger.Notice {
	var out []ledger.Notice
	for _, r := range records {
		if r.Kind == KindNotice {
			out = append(out, *r.Notice)
		}
	}
	return out
}
