package export

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/spool"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/telemetry"
	"github.com/muthur/context-budget/internal/telemetry/otlptest"
	"github.com/muthur/context-budget/ledger"
)

// project makes a project with a session s1 that has two pause notices
// (one verdict relays, one lets Claude Code compact) and a chain record
// in its spool, a cap's halt in the fuse's folder and a ledger row, and
// another session s0 with only a loop's halt (one whose end ran no Stop
// hook). It returns the root and the environment's getenv: the
// process's (where the SDK reads its variables), with a HOME of its own.
func project(t *testing.T) (root string, getenv func(string) string) {
	t.Helper()
	root = t.TempDir()
	home := t.TempDir()
	getenv = func(k string) string {
		if k == "HOME" {
			return home
		}
		return os.Getenv(k)
	}
	dir := state.Dir(root)
	if err := spool.Notice(dir, "s1", ledger.Notice{Level: "pause", At: "2026-12-01T10:00:00Z", Reading: 312_000,
		Warn: 250_000, Pause: 305_000, Model: "claude-opus-4-6",
		Verdict: &ledger.Verdict{Choice: "relay", Against: "compact", NetUSD: 0.8, Policy: "relay"}}); err != nil {
		t.Fatal(err)
	}
	// After a compaction, a pause under the cheapest policy whose verdict
	// is to let Claude Code compact: no relay, so no saving.
	if err := spool.Notice(dir, "s1", ledger.Notice{Level: "pause", At: "2026-12-01T10:03:00Z", Reading: 310_000,
		Warn: 250_000, Pause: 305_000, Model: "claude-opus-4-6",
		Verdict: &ledger.Verdict{Choice: "compact", Against: "compact", NetUSD: -0.3, Policy: "cheapest"}}); err != nil {
		t.Fatal(err)
	}
	if err := spool.Chain(dir, "s1", spool.ChainSession{Chain: "c-1", Place: 2, Ended: "handed over", HandedOver: true,
		CostUSD: 3.5, At: "2026-12-01T10:05:00Z"}); err != nil {
		t.Fatal(err)
	}
	fdir := fuse.Dir(getenv, root)
	if err := os.MkdirAll(fdir, 0o700); err != nil {
		t.Fatal(err)
	}
	for id, line := range map[string]string{
		"s1": `{"reason":"cap","cap":"$5.00","at":"2026-12-01T10:04:00Z","words":"spent $5.01 of $5.00"}`,
		"s0": `{"reason":"loop","cap":"5 calls","at":"2026-12-01T10:04:00Z","words":"the same tool call ran 5 times in a row (Bash: curl -H 'Authorization: x')"}`,
	} {
		if err := os.WriteFile(filepath.Join(fdir, id+fuse.HaltsSuffix), []byte(line+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	row := &ledger.Row{SessionID: "s1", Branch: "feat/x", Cwd: ".", Author: "ada@example.com", Operator: "ada",
		FirstResponseAt: "2026-12-01T09:00:00Z", LastResponseAt: "2026-12-01T10:04:30Z",
		Total:  ledger.Tally{Responses: 40, CostUSD: 3.5, InputTokens: 100, OutputTokens: 2000},
		ByRate: map[string]ledger.Tally{"claude-opus-4-6/standard": {CostUSD: 3.5}},
		Chain:  "c-1", Place: 2}
	if _, err := ledger.Write(root, row); err != nil {
		t.Fatal(err)
	}
	return root, getenv
}

// env points the SDK's exporters at endpoint by protocol, as the
// exporter's environment does.
func env(t *testing.T, endpoint, protocol string) telemetry.Config {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", protocol)
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "team=core")
	return telemetry.Config{Logs: true, Metrics: true}
}

func run(t *testing.T, root string, getenv func(string) string, c telemetry.Config) Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Deadline)
	defer cancel()
	e := newExport(Job{Root: root, Session: "s1"}, c, getenv, time.Now())
	return e.run(ctx)
}

// TestExport: over HTTP and gRPC, every waiting record arrives once as an
// event keyed by its session, the metrics beside; a second run finds
// nothing waiting.
func TestExport(t *testing.T) {
	for _, protocol := range []string{"http/protobuf", "grpc"} {
		t.Run(protocol, func(t *testing.T) {
			root, getenv := project(t)
			var rcv *otlptest.Receiver
			if protocol == "grpc" {
				rcv = otlptest.NewGRPC(t)
			} else {
				rcv = otlptest.NewHTTP(t)
			}
			out := run(t, root, getenv, env(t, rcv.Endpoint, protocol))
			if out.Path != PathSent || out.Records != 6 || !out.Metrics {
				t.Fatalf("outcome %+v, want sent, 6 records and metrics", out)
			}
			var names []string
			for _, l := range rcv.Logs() {
				names = append(names, l.EventName+"/"+l.Attrs["session.id"].(string))
				if l.Resource["service.name"] != "context-budget" || l.Resource["team"] != "core" {
					t.Errorf("resource %v: want service.name context-budget and the user's team=core", l.Resource)
				}
			}
			slices.Sort(names)
			want := []string{EventChainSession + "/s1", EventFuseHalt + "/s0", EventFuseHalt + "/s1", EventNotice + "/s1", EventNotice + "/s1", EventSession + "/s1"}
			if !slices.Equal(names, want) {
				t.Fatalf("events %q, want %q", names, want)
			}
			for _, l := range rcv.Logs() {
				switch l.EventName {
				case EventNotice:
					if l.Attrs["reading_tokens"] == int64(310_000) {
						if l.Attrs["choice"] != "compact" || l.Attrs["net_usd"] != -0.3 || l.Attrs["policy"] != "cheapest" {
							t.Errorf("the cheapest policy's notice: %v", l)
						}
						continue
					}
					if l.Attrs["level"] != "pause" || l.Attrs["reading_tokens"] != int64(312_000) || l.Attrs["choice"] != "relay" ||
						l.Attrs["against"] != "compact" || l.Attrs["policy"] != "relay" ||
						l.Attrs["net_usd"] != 0.8 || l.Attrs["vcs.ref.head.name"] != "feat/x" || l.Attrs["user.email"] != "ada@example.com" ||
						l.Attrs["model"] != "claude-opus-4-6" || !l.Time.Equal(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)) {
						t.Errorf("notice: %v", l)
					}
				case EventFuseHalt:
					// A cap's words in full; a loop's name the tool alone.
					want := map[string]string{"s1": "spent $5.01 of $5.00", "s0": "the same tool call ran 5 times in a row (Bash)"}
					if id := l.Attrs["session.id"].(string); l.Attrs["words"] != want[id] {
						t.Errorf("halt of %s: words %q, want %q", id, l.Attrs["words"], want[id])
					}
				case EventSession:
					if l.Attrs["cost_usd"] != 3.5 || l.Attrs["responses"] != int64(40) || l.Attrs[telemetry.AttrChain] != "c-1" ||
						l.Attrs[telemetry.AttrPlace] != int64(2) || l.Attrs["context_budget.operator"] != "ada" {
						t.Errorf("session: %v", l)
					}
				case EventChainSession:
					if l.Attrs["ended"] != "handed over" || l.Attrs["handed_over"] != true || l.Attrs[telemetry.AttrPlace] != int64(2) {
						t.Errorf("chain session: %v", l)
					}
				}
			}
			var savings, notices bool
			for _, p := range rcv.Points() {
				switch p.Name {
				case "context_budget.relay.savings":
					savings = p.Value == 0.8 && p.Attrs["session.id"] == "s1" && !p.Monotonic
				case "context_budget.notices":
					notices = p.Value == 2 && p.Attrs["level"] == "pause" && p.Delta
				}
			}
			if !savings || !notices {
				t.Errorf("metrics %v: want the relaying verdict's savings 0.8 alone and two pause notices, as a delta", rcv.Points())
			}
			if again := run(t, root, getenv, env(t, rcv.Endpoint, protocol)); again.Path != PathNothing {
				t.Errorf("second run: %+v, want nothing to send", again)
			}
			if n := len(rcv.Logs()); n != 6 {
				t.Errorf("%d records after the second run, want the 6 of the first", n)
			}
		})
	}
}

// TestExportCollectorFails: a collector that is down fails the send, one
// that never answers takes the deadline's path; either way nothing is
// marked sent, and the next run against a working collector sends it
// all.
func TestExportCollectorFails(t *testing.T) {
	root, getenv := project(t)
	for _, tc := range []struct {
		name, endpoint, path string
	}{
		{"down", otlptest.Down(t), PathFailed},
		{"black hole", otlptest.BlackHole(t), PathDeadline},
	} {
		out := run(t, root, getenv, env(t, tc.endpoint, "http/protobuf"))
		if out.Path != tc.path {
			t.Errorf("%s: outcome %+v, want %s", tc.name, out, tc.path)
		}
		sent, ok := ReadSent(state.Dir(root), "s1")
		if !ok || sent.Last.Path != tc.path || sent.Records != 0 || sent.Halts != 0 || sent.Row != "" {
			t.Errorf("%s: .sent %+v, want the outcome and nothing marked sent", tc.name, sent)
		}
	}
	rcv := otlptest.NewHTTP(t)
	if out := run(t, root, getenv, env(t, rcv.Endpoint, "http/protobuf")); out.Path != PathSent || out.Records != 6 {
		t.Errorf("after the failures: %+v, want all 6 sent", out)
	}
}

// TestExportSkipsHeldSession: a session another run holds is left to it.
func TestExportSkipsHeldSession(t *testing.T) {
	root, getenv := project(t)
	unlock, err := state.Lock(SentFile(state.Dir(root), "s1") + state.LockSuffix)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	rcv := otlptest.NewHTTP(t)
	run(t, root, getenv, env(t, rcv.Endpoint, "http/protobuf"))
	for _, l := range rcv.Logs() {
		if l.Attrs["session.id"] == "s1" {
			t.Errorf("sent %v of a session another run holds", l)
		}
	}
	if len(rcv.Logs()) != 1 || !strings.Contains(rcv.Logs()[0].EventName, "fuse_halt") {
		t.Errorf("got %v, want s0's halt alone", rcv.Logs())
	}
}
