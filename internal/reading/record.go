package reading

import "github.com/muthur/context-budget/internal/transcript"

// record is what the tail's reader takes of a transcript record: the
// fields of design §3's rule and of a Reading, read as transcript.Decode
// reads them (the full passes' decoder; a test holds the two to the same
// readings). Like it, a record whose type, chain, message, model, id or
// usage holds a value of another type is skipped rather than read with
// zeros: a sidechain response would pass for the main chain's, an
// unreadable usage for a compaction.
type record struct {
	typ, requested, version, time string
	sidechain                     bool
	id, model                     string
	// content is the message's content as JSON text: a response holds
	// the call's tool_use block when it holds the block's id as a JSON
	// string (ids are unique, and a quote inside a string is escaped).
	content []byte
	usage   transcript.Usage
	split   transcript.CacheCreation
	// What the message, its usage and the usage's split held: a response
	// has a message and a usage; the split may be absent.
	message, hasUsage, hasSplit Got
	pick                        *Pick
}

func newRecord() *record {
	r := &record{}
	const m, u = "message.", "message.usage."
	fields := []Field{
		{Path: "type", To: &r.typ, Strict: true},
		{Path: "isSidechain", To: &r.sidechain, Strict: true},
		{Path: "requestedModel", To: &r.requested},
		{Path: "version", To: &r.version},
		{Path: "timestamp", To: &r.time},
		{Path: "message", Got: &r.message, Strict: true},
		{Path: m + "id", To: &r.id, Strict: true},
		{Path: m + "model", To: &r.model, Strict: true},
		{Path: m + "content", To: &r.content},
		{Path: m + "usage", Got: &r.hasUsage, Strict: true},
		{Path: u + "input_tokens", To: &r.usage.InputTokens, Strict: true},
		{Path: u + "cache_creation_input_tokens", To: &r.usage.CacheCreationInputTokens, Strict: true},
		{Path: u + "cache_read_input_tokens", To: &r.usage.CacheReadInputTokens, Strict: true},
		{Path: u + "output_tokens", To: &r.usage.OutputTokens, Strict: true},
		{Path: u + "speed", To: &r.usage.Speed, Strict: true},
		{Path: u + "cache_creation", Got: &r.hasSplit, Strict: true},
		{Path: u + "cache_creation.ephemeral_5m_input_tokens", To: &r.split.Ephemeral5m, Strict: true},
		{Path: u + "cache_creation.ephemeral_1h_input_tokens", To: &r.split.Ephemeral1h, Strict: true},
	}
	for i := range fields {
		fields[i].Max = MaxLine
	}
	r.pick = NewPick(fields...)
	return r
}

// each decodes the records of one line into r, calling fn after each, in
// file order: the line's one record, or those a damaged line holds, found
// by transcript.Spliced as the full passes find them.
func (r *record) each(line []byte, fn func()) {
	switch err := r.pick.Decode(line); {
	case err == nil:
		fn()
	case err != ErrSyntax:
		// One record, with a field of another type: skipped.
	case oneValue(line):
		// One JSON value, but not an object: no record.
	default:
		transcript.Spliced(line, func(rest []byte) (int, bool) {
			n, err := r.pick.prefix(rest)
			if err == ErrSyntax {
				return 0, false
			}
			if err == nil {
				fn()
			}
			return n, true
		})
	}
}

// isResponse is design §3's rule: a main-chain assistant record with
// usage, from a model (not Claude Code's placeholder); in a subagent's
// own transcript (sidechain), a sidechain one.
func (r *record) isResponse(sidechain bool) bool {
	return r.typ == "assistant" && r.sidechain == sidechain && r.message == Found && r.hasUsage == Found &&
		r.model != transcript.Synthetic
}

// reading is the Reading the record gives.
func (r *record) reading() Reading {
	u := r.usage
	if r.hasSplit == Found {
		split := r.split
		u.CacheCreation = &split
	}
	return Reading{Tokens: u.Context(), Model: r.model, RequestedModel: r.requested, Version: r.version,
		MessageID: r.id, Usage: u, Time: r.time}
}
