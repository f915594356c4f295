package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
)

// knownType reports the record types Claude Code is known to write (up to
// 2.1.332); others are worth a mention, not an alarm. A switch, not a
// package-level map: a map literal is built at package initialisation,
// which every hook call would pay.
func knownType(t string) bool {
	switch t {
	case "user", "assistant", "system", "progress", "summary",
		"file-history-snapshot", "queue-operation", "pr-link",
		"attachment", "custom-title", "agent-name", "ai-title",
		"last-prompt", "mode", "permission-mode", "api-request",
		"cost-state":
		return true
	}
	return false
}

// oneMillion is the largest window Claude Code has; a reading past it
// means the reading is wrong.
const oneMillion = 1_000_000

// transcriptScan is what one forward pass over a transcript found.
type transcriptScan struct {
	records   int
	responses int
	// badLines counts complete lines in which no record decoded; a final
	// line without its newline is still being written and is not counted.
	badLines int
	unknown  map[string]int
	over1M   int
	peak     int64
	last     int64
	// requestedModel and version are the last response's: evidence of a
	// 1M window, and where the version compacts.
	requestedModel, version string
	// long counts lines past reading.MaxLine, skipped unread.
	long int
}

// scanTranscript reads a whole transcript once, through the one forward
// reader: doctor is not on the hot path, so unlike the hook it reads
// every line, but skips those past reading.MaxLine as every reader does
// (counted in long). The last line is decoded even without its newline;
// only a complete line that decodes to nothing is a bad line (the last
// one may still be being written).
func scanTranscript(r io.Reader) (transcriptScan, error) {
	sc := transcriptScan{unknown: map[string]int{}}
	rd := reading.NewReader(r)
	rd.Final = true
	for {
		before, skipped := rd.Offset(), rd.Skipped
		line, err := rd.Next()
		sc.long = rd.Skipped
		if err == io.EOF {
			return sc, nil
		}
		if err != nil {
			return sc, err
		}
		// A line that ended with its newline moved the offset one byte
		// past it (when no long line was skipped before it).
		complete := rd.Skipped > skipped || rd.Offset()-before > int64(len(line))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		n := 0
		transcript.Decode(line, func(rec *transcript.Record) {
			n++
			sc.records++
			if rec.Type != "" && !knownType(rec.Type) && rec.Message != nil && rec.Message.Usage != nil {
				sc.unknown[rec.Type]++
			}
			if rec.IsResponse() {
				sc.responses++
				c := rec.Message.Usage.Context()
				sc.last = c
				sc.requestedModel, sc.version = rec.RequestedModel, rec.Version
				sc.peak = max(sc.peak, c)
				if c > oneMillion {
					sc.over1M++
				}
			}
		})
		if n == 0 && complete {
			sc.badLines++
		}
	}
}

// transcriptDecision decides the lines for a transcript as the hook
// would, from a fresh pass (transcriptInput), with the project's price
// table: the built-in one when an override is refused (checkPrices
// reports that).
func transcriptDecision(name string, s tuning.Settings, root string, sc transcriptScan) (lines.Decision, error) {
	var table *prices.Table
	if !s.Fixed {
		table, _, _ = priceTable(root, os.Getenv, false)
	}
	r := reading.Reading{Tokens: sc.last, RequestedModel: sc.requestedModel, Version: sc.version}
	in, err := transcriptInput(s, r, table, name, root, strings.TrimSuffix(filepath.Base(name), ".jsonl"), os.Getenv)
	if err != nil {
		return lines.Decision{}, err
	}
	return lines.Decide(in), nil
}

func (d *doctor) checkTranscript(name, root string, s tuning.Settings) {
	f, _, err := reading.Open(name)
	if err != nil {
		d.printf("    unreadable: %v\n", err)
		d.problem("%s: %v", name, err)
		return
	}
	defer f.Close()
	sc, err := scanTranscript(f)
	if err != nil {
		d.printf("    unreadable: %v\n", err)
		d.problem("%s: %v", name, err)
		return
	}
	if sc.responses == 0 {
		d.printf("    no responses with usage yet (%d records)\n", sc.records)
	} else if dec, err := transcriptDecision(name, s, root, sc); err != nil {
		d.printf("    lines: %v\n", err)
		d.problem("%s: %v", name, err)
	} else {
		ls := dec.Lines
		d.printf("    reading %s (peak %s) · warn %s (%s) · pause %s (%s)",
			notice.K(sc.last), notice.K(sc.peak),
			notice.K(ls.Warn.Tokens), ls.Warn.SetBy, notice.K(ls.Pause.Tokens), ls.Pause.SetBy)
		if m := dec.Money(sc.last); m != nil {
			d.printf(" · relaying now %s", notice.RelayWords(m))
		}
		d.printf("\n")
		d.printf("    %s\n", notice.WindowWords(dec.Window))
		if past := dec.PastCompaction(); len(past) > 0 {
			d.problem("%s: the %s line set in the environment lies at or past Claude Code's compaction point (%s): it will never fire",
				name, strings.Join(past, " and "), notice.K(dec.Window.CompactsAt))
		}
	}
	if sc.badLines > 0 {
		d.printf("    %d lines did not parse\n", sc.badLines)
		d.problem("%s: %d lines did not parse", name, sc.badLines)
	}
	if sc.long > 0 {
		d.printf("    %d lines longer than %d MiB skipped, as the hook skips them\n", sc.long, reading.MaxLine>>20)
	}
	if sc.over1M > 0 {
		d.printf("    %d readings above 1M tokens\n", sc.over1M)
		d.problem("%s: %d readings above 1M tokens, more than any window", name, sc.over1M)
	}
	if len(sc.unknown) > 0 {
		var types []string
		for t, n := range sc.unknown {
			types = append(types, fmt.Sprintf("%s (%d)", t, n))
		}
		sort.Strings(types)
		d.printf("    records of unknown types that carry usage, not counted: %s\n", strings.Join(types, ", "))
	}
}
