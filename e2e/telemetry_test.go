package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/telemetry/export"
	"github.com/muthur/context-budget/internal/telemetry/otlptest"
	"github.com/muthur/context-budget/ledger"
)

// telemetryOn is what a team puts in a settings file's env block, or in
// the environment, to turn Claude Code's telemetry on towards endpoint;
// the intervals are short so that Claude Code's own records come within
// the run.
func telemetryOn(endpoint string) map[string]string {
	return map[string]string{
		"CLAUDE_CODE_ENABLE_TELEMETRY": "1",
		"OTEL_LOGS_EXPORTER":           "otlp",
		"OTEL_METRICS_EXPORTER":        "otlp",
		"OTEL_EXPORTER_OTLP_PROTOCOL":  "http/protobuf",
		"OTEL_EXPORTER_OTLP_ENDPOINT":  endpoint,
		"OTEL_METRIC_EXPORT_INTERVAL":  "500",
		"OTEL_LOGS_EXPORT_INTERVAL":    "200",
	}
}

// arrival bounds the wait for records that come on an exporter's
// interval; ours are sent before the Stop hook returns.
const arrival = 30 * time.Second

// ours reports whether a record is this project's.
func ours(resource map[string]any) bool { return resource["service.name"] == "context-budget" }

// oneRow is the project's one ledger row.
func oneRow(t *testing.T, project string) ledger.Row {
	t.Helper()
	rd, err := ledger.NewReader(ledger.Dir(project))
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := rd.ReadAll()
	if len(rows) != 1 {
		t.Fatalf("%d ledger rows, want 1", len(rows))
	}
	return rows[0]
}

// TestTelemetryJoinsClaudeCode: with Claude Code's telemetry turned on in
// the user's settings, our notices and the session's figures reach the
// collector beside Claude Code's own records, with the same session.id,
// naming the repository, the branch and the author; each notice carries
// the verdict the hook gave (claude-opus-4-6 is priced), and the pause's
// net dollars, as it chose to relay, are the relay's savings.
func TestTelemetryJoinsClaudeCode(t *testing.T) {
	rcv := otlptest.NewHTTP(t)
	sc := climbScript()
	env := fixedLines()
	for k, v := range telemetryOn(rcv.Endpoint) {
		env[k] = v
	}
	s := runClaude(t, sc, Options{Env: env, Prepare: func(s *Session) { gitRepo(t, s.Project) }})
	id := oneRow(t, s.Project).SessionID
	want := map[string]bool{"notice/warn": false, "notice/pause": false, "session": false, "claude_code.api_request": false}
	rcv.WaitFor(arrival, func(logs []otlptest.Log, _ []otlptest.Point) bool {
		for _, l := range logs {
			if l.Attrs["session.id"] != id {
				continue
			}
			switch {
			case ours(l.Resource) && l.EventName == export.EventNotice && l.Attrs["vcs.ref.head.name"] == "main" &&
				l.Attrs["vcs.repository.name"] == "project" && l.Attrs["user.email"] == "e2e@example.invalid":
				want["notice/"+l.Attrs["level"].(string)] = true
			case ours(l.Resource) && l.EventName == export.EventSession:
				want["session"] = true
			case l.Resource["service.name"] == "claude-code" && l.Body == "claude_code.api_request":
				want["claude_code.api_request"] = true
			}
		}
		for _, ok := range want {
			if !ok {
				return false
			}
		}
		return true
	})
	for what, ok := range want {
		if !ok {
			t.Errorf("no %s record of session %s arrived", what, id)
		}
	}
	var pauseNet any
	for _, l := range rcv.Logs() {
		if ours(l.Resource) && l.Attrs["session.id"] != id {
			t.Errorf("a record of ours keyed by another session: %v", l)
		}
		if !ours(l.Resource) || l.EventName != export.EventNotice {
			continue
		}
		// The hook's verdict: relay (the default policy), against carrying
		// on at the warning (60k), against letting Claude Code compact at
		// the pause (130k), whose point (168k) lies within the next 100k
		// tokens.
		against := map[any]string{"warn": "carry on", "pause": "compact"}[l.Attrs["level"]]
		if _, isNet := l.Attrs["net_usd"].(float64); !isNet || l.Attrs["choice"] != "relay" || l.Attrs["against"] != against ||
			l.Attrs["policy"] != "relay" {
			t.Errorf("a notice without the hook's verdict (against %s): %v", against, l.Attrs)
		}
		if l.Attrs["level"] == "pause" {
			pauseNet = l.Attrs["net_usd"]
			data, _ := json.MarshalIndent(l, "", "  ")
			t.Logf("our pause notice, as the receiver decoded it:\n%s", data)
		}
	}
	row := oneRow(t, s.Project)
	for _, n := range row.Notices {
		if n.Verdict == nil || n.Verdict.Choice != "relay" {
			t.Errorf("the row's notice %+v, want its verdict", n)
		}
	}
	savings := false
	for _, p := range rcv.Points() {
		if ours(p.Resource) && p.Name == "context_budget.relay.savings" && p.Attrs["session.id"] == id {
			savings = p.Value == pauseNet
		}
	}
	if !savings {
		t.Errorf("no context_budget.relay.savings of %v, the pause's net dollars, for session %s", pauseNet, id)
	}
	if sent, ok := export.ReadSent(state.Dir(s.Project), id); !ok || sent.Last.Path != export.PathSent {
		t.Errorf(".sent %+v, want the sent path", sent)
	}
}

// TestTelemetryNotOurs: nothing of ours arrives, and no exporter runs,
// when Claude Code's telemetry is off, or turned on by the project's
// committed settings alone.
func TestTelemetryNotOurs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		user    func(endpoint string) map[string]string
		project bool
	}{
		{"off", func(endpoint string) map[string]string {
			env := telemetryOn(endpoint)
			delete(env, "CLAUDE_CODE_ENABLE_TELEMETRY")
			return env
		}, false},
		{"project settings only", func(string) map[string]string { return nil }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rcv := otlptest.NewHTTP(t)
			env := fixedLines()
			for k, v := range tc.user(rcv.Endpoint) {
				env[k] = v
			}
			sc := climbScript()
			s := runClaude(t, sc, Options{Env: env, Prepare: func(s *Session) {
				if !tc.project {
					return
				}
				data, _ := json.Marshal(map[string]any{"env": telemetryOn(rcv.Endpoint)})
				os.MkdirAll(filepath.Join(s.Project, ".claude"), 0o755)
				if err := os.WriteFile(filepath.Join(s.Project, ".claude", "settings.json"), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}})
			id := oneRow(t, s.Project).SessionID
			if _, ok := export.ReadSent(state.Dir(s.Project), id); ok {
				t.Error("an exporter ran")
			}
			// Ours would have gone before the Stop hook returned, so before
			// claude exited; Claude Code's own show whether it sent at all.
			for _, l := range rcv.Logs() {
				if ours(l.Resource) {
					t.Errorf("received %v", l)
				}
			}
			t.Logf("Claude Code's own: %d log records, %d points", len(rcv.Logs()), len(rcv.Points()))
		})
	}
}

// TestTelemetryCollectorFails: a collector that is down, or that accepts
// and never answers, costs the Stop hook the send, never the row: the
// row is written, and the exporter's .sent says which path it took.
func TestTelemetryCollectorFails(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		endpoint   func(testing.TB) string
	}{
		{"down", export.PathFailed, otlptest.Down},
		{"black hole", export.PathDeadline, otlptest.BlackHole},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := fixedLines()
			for k, v := range telemetryOn(tc.endpoint(t)) {
				env[k] = v
			}
			sc := climbScript()
			s := runClaude(t, sc, Options{Env: env})
			checkLedger(t, s)
			row := oneRow(t, s.Project)
			if len(row.Notices) != 2 || row.Notices[0].Verdict == nil || row.Notices[1].Verdict == nil {
				t.Errorf("row's notices %+v, want the warning and the pause, with their verdicts", row.Notices)
			}
			sent, ok := export.ReadSent(state.Dir(s.Project), row.SessionID)
			if !ok || sent.Last.Path != tc.path || sent.Records != 0 {
				t.Errorf(".sent %+v, want the %s path and nothing marked sent", sent, tc.path)
			}
		})
	}
}

// TestTelemetryChainStamped: run, with telemetry on in its environment,
// stamps each session's own telemetry with the chain's id and place, the
// repository and the branch, after the attributes the user keeps in the
// settings; and sends each session's end in the chain, with the same
// session.id as Claude Code's records.
func TestTelemetryChainStamped(t *testing.T) {
	rcv := otlptest.NewHTTP(t)
	sc := Script{Main: append(append([]Turn{workTurn(30_000, "one")}, handOverTurns(40_000, "one")...),
		turn(25_000, text("Picked up from the hand-over; the work is done.")))}
	var environ []string
	for k, v := range telemetryOn(rcv.Endpoint) {
		environ = append(environ, k+"="+v)
	}
	run := runChain(t, sc, chainOptions{Environ: environ, Env: map[string]string{"OTEL_RESOURCE_ATTRIBUTES": "team=core"}})
	sum := run.Summary
	if run.Code != 0 || len(sum.Sessions) != 2 {
		t.Fatalf("exit %d, %d sessions\n%s", run.Code, len(sum.Sessions), run.Timeline())
	}
	stamped := func(place int) func([]otlptest.Log, []otlptest.Point) bool {
		id := sum.Sessions[place-1].SessionID
		return func(_ []otlptest.Log, points []otlptest.Point) bool {
			for _, p := range points {
				r := p.Resource
				if p.Name == "claude_code.cost.usage" && p.Attrs["session.id"] == id && r["context_budget.chain.id"] == sum.Chain &&
					r["context_budget.chain.place"] == strconv.Itoa(place) && r["vcs.repository.name"] == "project" &&
					r["vcs.ref.head.name"] == "main" && r["team"] == "core" {
					return true
				}
			}
			return false
		}
	}
	for place := 1; place <= 2; place++ {
		if !rcv.WaitFor(arrival, stamped(place)) {
			t.Errorf("no claude_code.cost.usage of session %d stamped with chain %s", place, sum.Chain)
		}
	}
	for _, p := range rcv.Points() {
		if p.Name == "claude_code.cost.usage" && p.Attrs["session.id"] == sum.Sessions[1].SessionID {
			data, _ := json.MarshalIndent(p, "", "  ")
			t.Logf("Claude Code's own metric, stamped, as the receiver decoded it:\n%s", data)
			break
		}
	}
	ended := map[string]string{}
	for _, l := range rcv.Logs() {
		if ours(l.Resource) && l.EventName == export.EventChainSession && l.Attrs["context_budget.chain.id"] == sum.Chain {
			ended[l.Attrs["session.id"].(string)] = l.Attrs["ended"].(string)
		}
	}
	for _, s := range sum.Sessions {
		if ended[s.SessionID] != s.Ended {
			t.Errorf("session %d (%s): chain_session event says %q, the runner %q", s.Place, s.SessionID, ended[s.SessionID], s.Ended)
		}
	}
}

// TestTelemetryChainHalt: a fuse halt under claude -p runs no Stop hook;
// run sends its event, and the halted session's figures.
func TestTelemetryChainHalt(t *testing.T) {
	rcv := otlptest.NewHTTP(t)
	sc := Script{Main: append(bashTurns(8, 100_000, func(i int) string { return "echo step " + string(rune('a'+i)) }),
		handOverTurns(100_000, "one")...)}
	var environ []string
	for k, v := range telemetryOn(rcv.Endpoint) {
		environ = append(environ, k+"="+v)
	}
	run := runChain(t, sc, chainOptions{Environ: environ, Env: map[string]string{"MUTHUR_CONTEXT_BUDGET_SPEND": "$0.20"}})
	if run.Code != 4 || len(run.Summary.Sessions) != 1 {
		t.Fatalf("exit %d, %d sessions; want the halt\n%s", run.Code, len(run.Summary.Sessions), run.Timeline())
	}
	id := run.Summary.Sessions[0].SessionID
	got := map[string]bool{}
	for _, l := range rcv.Logs() {
		if ours(l.Resource) && l.Attrs["session.id"] == id {
			got[l.EventName] = true
			if l.EventName == export.EventFuseHalt && (l.Attrs["reason"] != "cap" || l.Attrs["cap"] != "$0.20") {
				t.Errorf("halt: %v", l)
			}
		}
	}
	for _, want := range []string{export.EventFuseHalt, export.EventChainSession, export.EventSession} {
		if !got[want] {
			t.Errorf("no %s of the halted session arrived (got %v)", want, got)
		}
	}
}
