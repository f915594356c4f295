// Package export is context-budget-telemetry: it sends what this project
// knows of a project's sessions to the team's OpenTelemetry collector,
// with the official Go SDK, as log records (events) and a few metrics,
// each keyed by session.id so that it joins Claude Code's own telemetry
// (design §17).
//
// The events: context_budget.notice (each notice: its level, reading,
// lines and verdict), context_budget.session (the ledger row's figures,
// at each stop), context_budget.fuse_halt (each halt of the spend fuse)
// and context_budget.chain_session (each session of a relay chain, as
// context-budget run saw it end). The metrics: the reading at a stop
// (context_budget.context.tokens), the notices (context_budget.notices)
// and the net dollars of the verdicts that chose to relay at a pause
// (context_budget.relay.savings).
//
// Where it goes is the standard OTEL_EXPORTER_OTLP_* variables' business
// (endpoint, headers, protocol: grpc, else OTLP over HTTP with
// protobuf), in the environment the caller gave it (telemetry.Start).
// The whole send runs under one deadline; what it could not send, it
// sends next time: each session's <session_id>.sent in the state folder
// says how far it got and how its last attempt went.
package export

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/metric"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/telemetry"
	"github.com/muthur/context-budget/internal/vcs"
)

// version is set at build time with -ldflags "-X …/export.version=…".
var version = "dev"

// Deadline bounds a send, from the first byte to the last answer: within
// telemetry.StartDeadline, with room to start and to record the outcome.
const Deadline = 1500 * time.Millisecond

// watchdog ends the process should the SDK not keep the deadline.
const watchdog = 1800 * time.Millisecond

// Command is the program: context-budget-telemetry export --root DIR
// --session ID [--transcript FILE]. It says nothing on success and exits
// 0 whatever the collector did; what went wrong is in the sessions'
// .sent files, and with -v on stderr.
func Command(args []string, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "export" {
		fmt.Fprintln(stderr, "usage: context-budget-telemetry export --root DIR --session ID [--transcript FILE] [-v]")
		return 2
	}
	fs := flag.NewFlagSet("context-budget-telemetry export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var j Job
	fs.StringVar(&j.Root, "root", "", "the project's root `DIR`")
	fs.StringVar(&j.Session, "session", "", "the session `ID` whose records go first")
	fs.StringVar(&j.Transcript, "transcript", "", "the session's transcript `FILE`, for its reading")
	verbose := fs.Bool("v", false, "say how the send went on stderr")
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 || j.Root == "" {
		return 2
	}
	c := telemetry.FromEnv(os.Getenv)
	if !c.On() {
		return 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), Deadline)
	defer cancel()
	e := newExport(j, c, os.Getenv, time.Now())
	stop := time.AfterFunc(watchdog, func() {
		e.finish(Outcome{Path: PathDeadline, Error: "the send outlived its deadline"})
		os.Exit(0)
	})
	defer stop.Stop()
	out := e.run(ctx)
	if *verbose {
		fmt.Fprintf(stderr, "context-budget-telemetry: %s: %d records, metrics %v %s\n", out.Path, out.Records, out.Metrics, out.Error)
	}
	return 0
}

// Job is what to send: the project's sessions, the named one first.
type Job = telemetry.Job

// The paths a send takes, as its Outcome names them.
const (
	// PathSent: the collector took everything.
	PathSent = "sent"
	// PathDeadline: the deadline came first (a collector that accepts
	// and never answers); nothing is counted as sent.
	PathDeadline = "deadline"
	// PathFailed: the collector refused, or could not be reached.
	PathFailed = "failed"
	// PathNothing: nothing was waiting to be sent.
	PathNothing = "nothing"
)

// Outcome is how one send went, as each session's .sent file keeps it.
type Outcome struct {
	At   string `json:"at"`
	Path string `json:"path"`
	// Records counts the log records sent (or tried); Metrics says
	// whether metrics went out.
	Records int    `json:"records"`
	Metrics bool   `json:"metrics"`
	Error   string `json:"error,omitempty"`
}

// export is one run of the program.
type export struct {
	job    Job
	config telemetry.Config
	getenv func(string) string
	now    time.Time
	dir    string

	mu       sync.Mutex
	sessions []*session
	done     bool
}

func newExport(j Job, c telemetry.Config, getenv func(string) string, now time.Time) *export {
	return &export{job: j, config: c, getenv: getenv, now: now, dir: state.Dir(j.Root)}
}

// run sends what is waiting and records how it went.
func (e *export) run(ctx context.Context) Outcome {
	e.mu.Lock()
	e.sessions = e.pending()
	e.mu.Unlock()
	defer e.release()
	n := 0
	for _, s := range e.sessions {
		n += s.count()
	}
	if n == 0 {
		return e.finish(Outcome{Path: PathNothing})
	}
	res, err := e.resource(ctx)
	if err != nil {
		return e.finish(Outcome{Path: PathFailed, Error: err.Error()})
	}
	project := vcs.Read(e.job.Root)
	out := Outcome{Path: PathSent}
	var errs []error
	if e.config.Logs {
		recs, err := e.sendLogs(ctx, res, project)
		out.Records = recs
		errs = append(errs, err)
	}
	if e.config.Metrics {
		err := e.sendMetrics(ctx, res, project)
		out.Metrics = err == nil
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		out.Path, out.Error = PathFailed, err.Error()
		if ctx.Err() != nil {
			out.Path = PathDeadline
		}
	}
	return e.finish(out)
}

// finish records the outcome in every session's .sent file, advancing
// their marks when everything was sent; only the first call counts (the
// watchdog's, or the run's).
func (e *export) finish(out Outcome) Outcome {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return out
	}
	e.done = true
	out.At = e.now.UTC().Format(time.RFC3339)
	for _, s := range e.sessions {
		s.save(out, out.Path == PathSent)
	}
	return out
}

// release lets the sessions' locks go.
func (e *export) release() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.sessions {
		s.unlock()
	}
}

// resource is what every record says of its sender: service.name
// context-budget and its version, over the user's OTEL_RESOURCE_ATTRIBUTES.
func (e *export) resource(ctx context.Context) (*resource.Resource, error) {
	return resource.New(ctx, resource.WithFromEnv(),
		resource.WithAttributes(semconv.ServiceNameKey.String("context-budget"), semconv.ServiceVersionKey.String(version)))
}

// sendLogs sends every session's waiting records as log records, in one
// request, and returns how many.
func (e *export) sendLogs(ctx context.Context, res *resource.Resource, project vcs.Info) (int, error) {
	exp, err := logExporter(ctx, e.getenv)
	if err != nil {
		return 0, err
	}
	defer exp.Shutdown(context.Background())
	col := &collect{}
	lp := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(col))
	logger := lp.Logger("github.com/muthur/context-budget", otellog.WithInstrumentationVersion(version))
	for _, s := range e.sessions {
		for _, ev := range s.events(project) {
			var r otellog.Record
			r.SetEventName(ev.name)
			r.SetBody(attribute.StringValue(ev.name))
			r.SetTimestamp(ev.at)
			r.SetObservedTimestamp(e.now)
			r.SetSeverity(ev.severity)
			// The name as an attribute too, where Claude Code's events
			// carry theirs (event.name), for the backends that query it.
			r.AddAttributes(attribute.String("event.name", ev.name))
			r.AddAttributes(ev.attrs...)
			logger.Emit(ctx, r)
		}
	}
	if len(col.records) == 0 {
		return 0, nil
	}
	return len(col.records), exp.Export(ctx, col.records)
}

// collect is a log processor that keeps the records, for one export.
type collect struct{ records []sdklog.Record }

func (c *collect) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (c *collect) OnEmit(_ context.Context, r *sdklog.Record) error {
	c.records = append(c.records, r.Clone())
	return nil
}
func (c *collect) Shutdown(context.Context) error   { return nil }
func (c *collect) ForceFlush(context.Context) error { return nil }

// sendMetrics records the metrics of the waiting records and sends them
// once.
func (e *export) sendMetrics(ctx context.Context, res *resource.Resource, project vcs.Info) error {
	exp, err := metricExporter(ctx, e.getenv)
	if err != nil {
		return err
	}
	defer exp.Shutdown(context.Background())
	reader := sdkmetric.NewManualReader(sdkmetric.WithTemporalitySelector(exp.Temporality))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithResource(res), sdkmetric.WithReader(reader))
	meter := mp.Meter("github.com/muthur/context-budget", metric.WithInstrumentationVersion(version))
	m, err := newMeters(meter)
	if err != nil {
		return err
	}
	recorded := false
	for _, s := range e.sessions {
		recorded = s.measure(ctx, m, project) || recorded
	}
	if !recorded {
		return nil
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		return err
	}
	return exp.Export(ctx, &rm)
}

// pending lists the sessions with something to send, each locked: the
// job's session first, then the project's others whose spool or fuse
// halts changed in the last week, the latest first, at most maxOthers.
func (e *export) pending() []*session {
	var out []*session
	seen := map[string]bool{}
	add := func(id, transcript string) {
		if seen[id] || !state.PlainName(id) {
			return
		}
		seen[id] = true
		if s := e.open(id, transcript); s != nil {
			out = append(out, s)
		}
	}
	add(e.job.Session, e.job.Transcript)
	for _, id := range e.others() {
		if len(out) > maxOthers {
			break
		}
		add(id, "")
	}
	return out
}

// Bounds of the sweep over the project's other sessions.
const (
	maxOthers = 16
	sweepAge  = 7 * 24 * time.Hour
)

// others lists the project's sessions whose spool or fuse halts changed
// within sweepAge, the latest first: a session whose end ran no Stop
// hook (a halt under claude -p) is sent by the next run that sees it.
func (e *export) others() []string {
	type seen struct {
		id string
		at time.Time
	}
	var all []seen
	look := func(dir, suffix string) {
		if dir == "" {
			return
		}
		found, _ := filepath.Glob(filepath.Join(dir, "*"+suffix))
		for _, f := range found {
			fi, err := os.Lstat(f)
			if err != nil || !fi.Mode().IsRegular() || e.now.Sub(fi.ModTime()) > sweepAge {
				continue
			}
			all = append(all, seen{strings.TrimSuffix(filepath.Base(f), suffix), fi.ModTime()})
		}
	}
	look(e.dir, state.EventsSuffix)
	look(fuse.Dir(e.getenv, e.job.Root), fuse.HaltsSuffix)
	slices.SortFunc(all, func(a, b seen) int { return b.at.Compare(a.at) })
	var ids []string
	for _, s := range all {
		ids = append(ids, s.id)
	}
	return ids
}

// readingOf is the reading of a transcript at its end, 0 when it has none.
func readingOf(transcript string) (tokens int64, model string) {
	if transcript == "" {
		return 0, ""
	}
	r, err := reading.Read(transcript, reading.Options{})
	if err != nil {
		return 0, ""
	}
	return r.Tokens, r.Model
}

// str is a string attribute, or none for an empty value.
func str(k attribute.Key, v string) []attribute.KeyValue {
	if v == "" {
		return nil
	}
	return []attribute.KeyValue{k.String(v)}
}
