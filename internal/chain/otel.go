package chain

import (
	"fmt"
	"strconv"
	"time"

	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/spool"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/telemetry"
	"github.com/muthur/context-budget/internal/vcs"
)

// The chain on the team's telemetry (design §17): each session carries
// the chain's id and its place, and the repository and branch, on Claude
// Code's own series, and its end goes to the collector with what its
// hooks left.

// stampTelemetry sets the OTEL_RESOURCE_ATTRIBUTES of session s
// (r.resource): the value the session would see, with the chain's id,
// the place, the repository and the branch after the user's own
// attributes. Claude Code takes the variable from its --settings over a
// settings file's env (local, project, user), and from those over the
// environment: where the user's --settings or a settings file sets it,
// the stamped value is pinned too, and goes in the one --settings the
// runner builds (args.go). A value the managed settings set wins over
// everything, and stays.
func (r *runner) stampTelemetry(s *Session, c claudeArgs, pins map[string]string) {
	r.resource = ""
	if managed, _ := settings.EnvOf(settings.ManagedFile()); managed[telemetry.EnvResource] != "" {
		return
	}
	info := vcs.Read(r.cfg.Dir)
	attrs := []telemetry.Attr{{Key: telemetry.AttrChain, Value: r.sum.Chain}, {Key: telemetry.AttrPlace, Value: strconv.Itoa(s.Place)},
		{Key: telemetry.AttrRepository, Value: info.Repository}, {Key: telemetry.AttrBranch, Value: info.Branch}}
	own, set := c.env()[telemetry.EnvResource]
	if !set {
		files, _ := settings.EnvOf(settings.EnvFiles(configDir(r.env), r.cfg.Dir)...)
		own, set = files[telemetry.EnvResource]
	}
	if !set {
		own = lookup(r.env)(telemetry.EnvResource)
	}
	r.resource = telemetry.Stamp(own, attrs)
	if set {
		pins[telemetry.EnvResource] = r.resource
	}
}

// reportTelemetry leaves the session's end in its spool and runs the
// exporter, as the run's environment (and the user's settings) say:
// with the session's halt, which no Stop hook reported under claude -p,
// and its row.
func (r *runner) reportTelemetry(s *Session, env []string) {
	if !state.PlainName(s.ID) {
		return
	}
	spool.Chain(state.Dir(r.cfg.Dir), s.ID, spool.ChainSession{Chain: r.sum.Chain, Place: s.Place, Ended: string(s.Ended),
		HandedOver: s.HandedOver, CostUSD: s.CostUSD, Exit: s.Exit, At: time.Now().UTC().Format(time.RFC3339)})
	c := telemetry.ForRun(r.cfg.Environ, configDir(env))
	if err := telemetry.Start(c, telemetry.Job{Root: r.cfg.Dir, Session: s.ID, Transcript: s.Transcript}, env); err != nil {
		fmt.Fprintf(r.cfg.Notes, "context-budget run: telemetry: %v\n", err)
	}
}
