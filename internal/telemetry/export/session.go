package export

import (
	"cmp"
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/spool"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/telemetry"
	"github.com/muthur/context-budget/internal/vcs"
	"github.com/muthur/context-budget/ledger"
)

// The events, as their log records name them.
const (
	EventNotice       = "context_budget.notice"
	EventSession      = "context_budget.session"
	EventFuseHalt     = "context_budget.fuse_halt"
	EventChainSession = "context_budget.chain_session"
)

// Sent is a session's .sent file: how much of what it left has gone
// out, and how the last attempt went.
type Sent struct {
	// Records counts the spool's records sent, Halts the fuse's halts;
	// both only grow, as their files do.
	Records int `json:"records"`
	Halts   int `json:"halts"`
	// Row names the ledger row last sent: its last response and count of
	// responses.
	Row  string  `json:"row,omitempty"`
	Last Outcome `json:"last"`
}

// SentFile is a session's .sent file in the state folder dir.
func SentFile(dir, session string) string {
	return filepath.Join(dir, session+state.SentSuffix)
}

// ReadSent reads a session's .sent file; ok is false when it has none.
func ReadSent(dir, session string) (Sent, bool) {
	return state.FromJSON[Sent](reading.ReadFile(SentFile(dir, session), reading.MaxSideFile))
}

// session is one session's waiting records, under its lock.
type session struct {
	e      *export
	id     string
	unlock func()
	sent   Sent

	records    []spool.Record // not yet sent
	halts      []fuse.Halt    // not yet sent
	allRecords int            // in the spool
	allHalts   int
	known      *ledger.Row // the session's row, nil when it has none
	row        *ledger.Row // the row to send, nil when sent already
	rowMark    string
	transcript string
}

// open locks the session and reads what it has waiting; nil when another
// run holds it, or its folder cannot be used.
func (e *export) open(id, transcript string) *session {
	if state.Ensure(e.dir) != nil {
		return nil
	}
	unlock, err := state.LockBy(SentFile(e.dir, id)+state.LockSuffix, time.Now().Add(200*time.Millisecond))
	if err != nil {
		return nil
	}
	s := &session{e: e, id: id, unlock: unlock, transcript: transcript}
	s.sent, _ = ReadSent(e.dir, id)
	recs := spool.Read(e.dir, id)
	s.allRecords = len(recs)
	if s.sent.Records < len(recs) {
		s.records = recs[max(s.sent.Records, 0):]
	}
	halts := fuse.Halts(fuse.Dir(e.getenv, e.job.Root), id)
	s.allHalts = len(halts)
	if s.sent.Halts < len(halts) {
		s.halts = halts[max(s.sent.Halts, 0):]
	}
	if r, ok := ledger.Find(e.job.Root, id); ok {
		s.known = &r
		s.rowMark = r.LastResponseAt + " " + strconv.FormatInt(r.Total.Responses, 10)
		if s.rowMark != s.sent.Row {
			s.row = &r
		}
	}
	return s
}

// count is how many events the session has waiting.
func (s *session) count() int {
	n := len(s.records) + len(s.halts)
	if s.row != nil {
		n++
	}
	return n
}

// save writes the session's .sent file: the outcome, and with advance
// the marks of what was sent.
func (s *session) save(out Outcome, advance bool) {
	next := s.sent
	next.Last = out
	if advance {
		next.Records, next.Halts = s.allRecords, s.allHalts
		if s.rowMark != "" {
			next.Row = s.rowMark
		}
	}
	state.WriteJSON(SentFile(s.e.dir, s.id), next)
}

// event is one log record to send.
type event struct {
	name     string
	at       time.Time
	severity otellog.Severity
	attrs    []attribute.KeyValue
}

// common is what every record of the session says: its id, where it
// ran, who ran it, on what model, and in what chain.
func (s *session) common(project vcs.Info, model string) []attribute.KeyValue {
	branch, author, operator, chain, place := project.Branch, project.Author, "", "", 0
	if r := s.known; r != nil {
		branch, author, operator = cmp.Or(r.Branch, branch), cmp.Or(r.Author, author), r.Operator
		model = cmp.Or(model, mainModel(r))
		chain, place = r.Chain, r.Place
	}
	if branch == "HEAD" {
		// What Claude Code's transcript says outside a branch.
		branch = ""
	}
	attrs := []attribute.KeyValue{semconv.SessionIDKey.String(s.id)}
	attrs = append(attrs, str(semconv.VCSRepositoryNameKey, project.Repository)...)
	attrs = append(attrs, str(semconv.VCSRefHeadNameKey, branch)...)
	attrs = append(attrs, str(semconv.UserEmailKey, author)...)
	attrs = append(attrs, str("context_budget.operator", operator)...)
	attrs = append(attrs, str("model", model)...)
	if chain != "" {
		attrs = append(attrs, attribute.String(telemetry.AttrChain, chain), attribute.Int(telemetry.AttrPlace, place))
	}
	return attrs
}

// events are the session's waiting records as log records.
func (s *session) events(project vcs.Info) []event {
	var out []event
	for _, r := range s.records {
		switch r.Kind {
		case spool.KindNotice:
			n := r.Notice
			attrs := append(s.common(project, n.Model),
				attribute.String("level", n.Level),
				attribute.Int64("reading_tokens", n.Reading),
				attribute.Int64("warn_line_tokens", n.Warn),
				attribute.Int64("pause_line_tokens", n.Pause))
			if v := n.Verdict; v != nil {
				attrs = append(attrs, attribute.String("choice", v.Choice), attribute.Float64("net_usd", v.NetUSD))
				attrs = append(attrs, str("against", v.Against)...)
				attrs = append(attrs, str("policy", v.Policy)...)
			}
			sev := otellog.SeverityInfo
			if n.Level == ledger.LevelPause {
				sev = otellog.SeverityWarn
			}
			out = append(out, event{EventNotice, when(n.At, s.e.now), sev, attrs})
		case spool.KindChainSession:
			c := r.Chain
			attrs := s.common(project, "")
			if s.known == nil || s.known.Chain == "" {
				attrs = append(attrs, attribute.String(telemetry.AttrChain, c.Chain), attribute.Int(telemetry.AttrPlace, c.Place))
			}
			attrs = append(attrs,
				attribute.String("ended", c.Ended),
				attribute.Bool("handed_over", c.HandedOver),
				attribute.Float64("cost_usd", c.CostUSD),
				attribute.Int("exit_code", c.Exit))
			out = append(out, event{EventChainSession, when(c.At, s.e.now), otellog.SeverityInfo, attrs})
		}
	}
	for _, h := range s.halts {
		attrs := append(s.common(project, ""),
			attribute.String("reason", h.Reason),
			attribute.String("cap", h.Cap))
		attrs = append(attrs, str("words", fuse.SharedWords(h))...)
		out = append(out, event{EventFuseHalt, when(h.At, s.e.now), otellog.SeverityWarn, attrs})
	}
	if r := s.row; r != nil {
		out = append(out, event{EventSession, when(r.LastResponseAt, s.e.now), otellog.SeverityInfo, s.rowAttrs(project, r)})
	}
	return out
}

// rowAttrs are a ledger row's figures as a session event says them.
func (s *session) rowAttrs(project vcs.Info, r *ledger.Row) []attribute.KeyValue {
	t := r.Total
	attrs := append(s.common(project, ""),
		attribute.Float64("cost_usd", t.CostUSD),
		attribute.Int64("responses", t.Responses),
		attribute.Int64("input_tokens", t.InputTokens),
		attribute.Int64("output_tokens", t.OutputTokens),
		attribute.Int64("cache_read_tokens", t.CacheReadTokens),
		attribute.Int64("cache_creation_tokens", t.CacheWrite5mTokens+t.CacheWrite1hTokens),
		attribute.Float64("subagents_cost_usd", r.Subagents.CostUSD),
		attribute.Bool("relayed", r.Relayed()),
		attribute.Int("compactions", len(r.Compactions)),
		attribute.Int("notices", len(r.Notices)),
		attribute.Int("halts", len(r.Halts)))
	attrs = append(attrs, str("first_response_at", r.FirstResponseAt)...)
	attrs = append(attrs, str("cwd", r.Cwd)...)
	if o := r.Orientation; o.Measured() {
		attrs = append(attrs, attribute.Float64("orientation_cost_usd", o.Spend.CostUSD),
			attribute.Int64("orientation_tokens", o.ContextTokens), attribute.String("orientation_ended_by", o.EndedBy))
	}
	return attrs
}

// meters are the instruments.
type meters struct {
	reading metric.Int64Gauge
	notices metric.Int64Counter
	savings metric.Float64UpDownCounter
}

func newMeters(m metric.Meter) (*meters, error) {
	reading, err1 := m.Int64Gauge("context_budget.context.tokens",
		metric.WithUnit("{token}"), metric.WithDescription("the context the session's last request carried, at its stop"))
	notices, err2 := m.Int64Counter("context_budget.notices",
		metric.WithUnit("{notice}"), metric.WithDescription("the context budget's notices, by level"))
	savings, err3 := m.Float64UpDownCounter("context_budget.relay.savings",
		metric.WithUnit("USD"), metric.WithDescription("what relaying at a pause saves over the alternative, by the verdicts that chose to relay (negative: what it cost more)"))
	return &meters{reading, notices, savings}, cmp.Or(err1, err2, err3)
}

// measure records the session's metrics; it reports whether it recorded
// any.
func (s *session) measure(ctx context.Context, m *meters, project vcs.Info) bool {
	recorded := false
	for _, r := range s.records {
		if r.Kind != spool.KindNotice {
			continue
		}
		n := r.Notice
		set := metric.WithAttributes(append(s.common(project, n.Model), attribute.String("level", n.Level))...)
		m.notices.Add(ctx, 1, set)
		if v := n.Verdict; v != nil && n.Level == ledger.LevelPause && v.Choice == "relay" {
			m.savings.Add(ctx, v.NetUSD, metric.WithAttributes(s.common(project, n.Model)...))
		}
		recorded = true
	}
	if s.row != nil {
		if tokens, model := readingOf(s.transcript); tokens > 0 {
			m.reading.Record(ctx, tokens, metric.WithAttributes(s.common(project, model)...))
			recorded = true
		}
	}
	return recorded
}

// mainModel is the model a row spent most on, "" for none.
func mainModel(r *ledger.Row) string {
	best, model := -1.0, ""
	for k, t := range r.ByRate {
		name := k
		if i := strings.LastIndex(k, "/"); i >= 0 {
			name = k[:i]
		}
		if t.CostUSD > best || t.CostUSD == best && name < model {
			best, model = t.CostUSD, name
		}
	}
	return model
}

// when is an RFC 3339 time, else now.
func when(at string, now time.Time) time.Time {
	if t, err := time.Parse(time.RFC3339Nano, at); err == nil {
		return t
	}
	return now
}
