// Package telemetry decides whether this project's knowledge goes to the
// team's OpenTelemetry collector, and starts the program that sends it
// (design §17). It is on when the user turned Claude Code's own telemetry
// on: CLAUDE_CODE_ENABLE_TELEMETRY with an OTLP exporter for logs or
// metrics (OTEL_LOGS_EXPORTER, OTEL_METRICS_EXPORTER).
//
// Claude Code removes the OTEL_* exporter variables from a hook's
// environment, and a project's committed settings reach a hook's
// environment too, so the hooks' side reads the switch, the endpoint and
// the headers from the user's and the managed settings files' env blocks
// only (ForHooks); `context-budget run` from its own environment, those
// files' blocks over it (ForRun). Never from a project's settings: a
// clone must not send a person's sessions to the committer's collector.
//
// The sending itself, with the OpenTelemetry SDK, is the program
// context-budget-telemetry (package telemetry/export): neither the hook's
// program nor context-budget-cli links it. Start runs it under a hard
// deadline (StartDeadline), so a collector that is down, refuses or
// never answers costs the caller at most that; what it could not send
// stays in the spool for the next run.
package telemetry

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/sibling"
)

// The variables that decide it, as Claude Code reads them.
const (
	EnvSwitch  = "CLAUDE_CODE_ENABLE_TELEMETRY"
	EnvLogs    = "OTEL_LOGS_EXPORTER"
	EnvMetrics = "OTEL_METRICS_EXPORTER"
	// EnvResource is the resource attributes Claude Code and the
	// exporter put on everything they send.
	EnvResource = "OTEL_RESOURCE_ATTRIBUTES"
)

// Config is where telemetry goes, when it does.
type Config struct {
	// Logs and Metrics say which signals go out by OTLP.
	Logs, Metrics bool
	// Env is the exporter's OpenTelemetry variables: the switch and every
	// OTEL_* variable, "NAME=value".
	Env []string
}

// On reports whether anything goes out.
func (c Config) On() bool { return c.Logs || c.Metrics }

// ForHooks is the telemetry a hook of the project at root sends: from
// the user's settings file's env block and the managed one's over it,
// and nothing else. getenv is the hook's environment, read only for
// where the user's settings are (HOME, CLAUDE_CONFIG_DIR); a project
// whose own settings set either of those could point the hook at a
// settings file of its choosing, so then nothing is sent.
func ForHooks(getenv func(string) string, root string) Config {
	project, _ := settings.EnvOf(settings.EnvFiles("", root)[1:]...)
	for _, k := range []string{"HOME", "CLAUDE_CONFIG_DIR"} {
		if _, set := project[k]; set {
			return Config{}
		}
	}
	home := getenv("HOME")
	if home == "" && getenv("CLAUDE_CONFIG_DIR") == "" {
		return Config{}
	}
	return fromVars(trusted(settings.ConfigDir(getenv, home)))
}

// ForRun is the telemetry context-budget run sends: its environment
// (environ, "NAME=value"), with the user's and the managed settings
// files' env blocks over it, as Claude Code applies them to its sessions.
func ForRun(environ []string, configDir string) Config {
	vars := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && ours(k) {
			vars[k] = v
		}
	}
	for k, v := range trusted(configDir) {
		vars[k] = v
	}
	return fromVars(vars)
}

// FromEnv is the telemetry an environment asks for: how the exporter,
// given Config.Env, reads it back.
func FromEnv(getenv func(string) string) Config {
	vars := map[string]string{}
	for _, k := range []string{EnvSwitch, EnvLogs, EnvMetrics} {
		if v := getenv(k); v != "" {
			vars[k] = v
		}
	}
	return fromVars(vars)
}

// trusted is the OpenTelemetry variables of the user's and the managed
// settings files, managed last.
func trusted(configDir string) map[string]string {
	merged, _ := settings.EnvOf(filepath.Join(configDir, "settings.json"), settings.ManagedFile())
	out := map[string]string{}
	for k, v := range merged {
		if ours(k) {
			out[k] = v
		}
	}
	return out
}

// ours reports whether a variable is one the exporter takes: the switch
// and OpenTelemetry's own.
func ours(name string) bool {
	return name == EnvSwitch || strings.HasPrefix(name, "OTEL_")
}

func fromVars(vars map[string]string) Config {
	var c Config
	if !truthy(vars[EnvSwitch]) {
		return c
	}
	c.Logs, c.Metrics = otlp(vars[EnvLogs]), otlp(vars[EnvMetrics])
	if !c.On() {
		return c
	}
	for k, v := range vars {
		if v != "" {
			c.Env = append(c.Env, k+"="+v)
		}
	}
	slices.Sort(c.Env)
	return c
}

// truthy reads the switch as Claude Code does: 1 or true.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// otlp reports whether an exporter list (OTEL_LOGS_EXPORTER's form,
// "otlp,console") names otlp.
func otlp(list string) bool {
	for _, e := range strings.Split(list, ",") {
		if strings.TrimSpace(strings.ToLower(e)) == "otlp" {
			return true
		}
	}
	return false
}

// ProgramName is the exporter's program.
const ProgramName = "context-budget-telemetry"

// Program finds the exporter: beside this program, else on PATH.
func Program() (string, error) {
	return sibling.Find(ProgramName)
}

// Job is one run of the exporter: the project's root, the session whose
// records to send first (the exporter then sends what other sessions of
// the project left unsent), and its transcript, when known, for the
// reading.
type Job struct {
	Root, Session, Transcript string
}

// Args are the exporter's arguments for the job.
func (j Job) Args() []string {
	args := []string{"export", "--root", j.Root, "--session", j.Session}
	if j.Transcript != "" {
		args = append(args, "--transcript", j.Transcript)
	}
	return args
}

// StartDeadline bounds a run of the exporter, from its start to its
// end: the exporter keeps a shorter deadline of its own, and this ends a
// process that did not.
const StartDeadline = 2 * time.Second

// ErrDeadline reports an exporter ended at StartDeadline.
var ErrDeadline = errors.New("the telemetry exporter ran past its deadline and was ended")

// Start runs the exporter for job with c's variables and waits for it,
// at most StartDeadline. environ is the caller's environment, of which
// the exporter gets everything but the OpenTelemetry variables, which
// come from c alone. Nothing runs when c is off.
func Start(c Config, job Job, environ []string) error {
	if !c.On() {
		return nil
	}
	prog, err := Program()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), StartDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, job.Args()...)
	cmd.Env = ExporterEnv(c, environ)
	cmd.Dir = job.Root
	// Should it leave a child holding an output, Wait returns anyway.
	cmd.WaitDelay = 100 * time.Millisecond
	err = cmd.Run()
	if ctx.Err() != nil {
		return ErrDeadline
	}
	return err
}

// ExporterEnv is the exporter's environment: environ without any
// OpenTelemetry variable or the switch, then c's.
func ExporterEnv(c Config, environ []string) []string {
	env := make([]string, 0, len(environ)+len(c.Env))
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); !ours(k) {
			env = append(env, kv)
		}
	}
	return append(env, c.Env...)
}
