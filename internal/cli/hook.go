package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/muthur/context-budget/internal/cold"
	"github.com/muthur/context-budget/internal/compactions"
	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/hook"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/prices/override"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
)

// runHook is the hook command as this program runs it: the hook package
// with the recompute and the cold check in process.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if wantsHelp(args) {
		newFlags("hook", "context-budget hook < hook-payload.json   (Claude Code runs it for each hook event)").printHelp(stdout)
		return 0
	}
	return hook.Run(stdin, stdout, stderr, inProcess{})
}

// runStatusline is the statusline command.
func runStatusline(args []string, stdin io.Reader, stdout, _ io.Writer) int {
	if wantsHelp(args) {
		fs := newFlags("statusline", "context-budget statusline [--color] < statusline-payload.json   (Claude Code runs it)")
		fs.Bool("color", false, "colour the line by level")
		fs.printHelp(stdout)
		return 0
	}
	return hook.Statusline(args, stdin, stdout)
}

// inProcess is the full program as the hook reaches it from this
// program: in process.
type inProcess struct{}

// Recompute decides the call's lines with the project's price table and
// saves them. A price file that does not read leaves the built-in table
// (the hook must not fail; `lines` and doctor say why). The deadline is
// the hook's, which ends the process.
func (inProcess) Recompute(call *lines.Call, _ time.Time) error {
	if t, _, err := priceTable(call.Root, call.Getenv, true); err == nil {
		call.Table = t
	}
	call.Sources, call.SourceDeps = findSources(call.Getenv, call.Root, call.Transcript, call.ID, call.Version, call.Model, call.Sources.Time, true)
	_, _, err := lines.DecideCached(call)
	return err
}

// HandOver answers a prompt (the cold check) or a resumed session's
// start.
func (inProcess) HandOver(p reading.Payload, stdout, stderr io.Writer) {
	if p.AgentID != "" || !state.PlainName(p.SessionID) || p.TranscriptPath == "" {
		return
	}
	root := hook.SessionRoot(os.Getenv, p.Cwd)
	if root == "" {
		return
	}
	c := cold.Call{Payload: p, Root: root, Getenv: os.Getenv, Now: time.Now()}
	if p.HookEventName == "SessionStart" {
		reportConfig(cold.OnStart(c), stderr)
		return
	}
	o, err := cold.OnPrompt(c)
	reportConfig(err, stderr)
	switch {
	case o.Block:
		stdout.Write(hook.BlockAnswer(o.Reason))
	case o.Context != "":
		stdout.Write(hook.ContextAnswer("UserPromptSubmit", o.Context))
	}
}

// reportConfig prints an invalid variable's one line; any other error is
// silence.
func reportConfig(err error, stderr io.Writer) {
	if ce, ok := err.(*tuning.Error); ok {
		printf(stderr, "context-budget: %v\n", ce)
	}
}

// runRecompute is the recompute command, which the hook's program runs
// when a session's line cache does not hold: it decides the session's
// lines and saves them in the cache. It prints nothing; a failure is its
// exit status.
func runRecompute(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("recompute", "context-budget recompute --root DIR --session ID --transcript PATH --reading N   (the hook runs it)")
	root := fs.String("root", "", "the project root")
	session := fs.String("session", "", "the session id")
	transcript := fs.String("transcript", "", "the session's transcript")
	readingFlag := fs.String("reading", "", "the session's reading, in tokens")
	model := fs.String("requested-model", "", "the reading's requestedModel")
	version := fs.String("cc-version", "", "the Claude Code version of the reading's record")
	served := fs.String("model", "", "the model that served the reading's record")
	at := fs.String("time", "", "the reading's record time (RFC 3339)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	n, err := strconv.ParseInt(*readingFlag, 10, 64)
	if err != nil || n < 0 || *root == "" || !state.PlainName(*session) || *transcript == "" {
		return usageError(stderr, "recompute", fmt.Errorf("recompute needs --root, --session, --transcript and --reading"))
	}
	s, err := tuning.FromEnv(os.Getenv)
	if err != nil {
		return fail(stderr, err, "")
	}
	call := &lines.Call{Dir: state.Dir(*root), ID: *session, Root: *root, Transcript: *transcript, Settings: s,
		Getenv: os.Getenv, Reading: n, RequestedModel: *model, Version: *version, Model: *served,
		Sources: lines.Sources{Time: *at}}
	if err := (inProcess{}).Recompute(call, time.Time{}); err != nil {
		return fail(stderr, err, "")
	}
	return 0
}

// priceTable loads a project's price table: the built-in one with the
// user's and the project's files laid over it and the warnings a command
// shows, or an error and the built-in table. With refresh it also leaves
// the merged table where the hook, which reads no TOML, takes it from.
func priceTable(root string, getenv func(string) string, refresh bool) (*prices.Table, []string, error) {
	stamp := prices.Stamp(prices.OverrideFiles(root, getenv))
	t, warnings, err := override.Load(root, getenv)
	if err == nil && refresh && root != "" && len(t.Files) > 0 {
		// A cache not written costs the hook the overrides, not a call:
		// it prices with the built-in table. The fuse keeps its own copy
		// in its folder, out of the agent's tree.
		name := filepath.Join(state.Dir(root), prices.CacheName)
		if _, ok := prices.ReadCache(name, stamp); !ok && state.Ensure(state.Dir(root)) == nil {
			_ = prices.WriteCache(name, stamp, t)
		}
		_ = fuse.CachePrices(getenv, root, stamp, t)
	}
	return t, warnings, err
}

// findSources finds the compaction point's sources (design §4.1) and the
// files they came from: the autoCompactWindow the settings files set for
// model, and the automatic compactions of the user's other sessions
// before time (their transcripts, through the project's index, and the
// project's ledger rows), each tagged with what moved the point in its
// project. Without HOME or CLAUDE_CONFIG_DIR in getenv there are none.
// save keeps the index's progress.
func findSources(getenv func(string) string, root, transcript, session, version, model, time string, save bool) (src lines.Sources, deps lines.Deps) {
	src.Time, src.Session, src.Project = time, session, root
	home := getenv("HOME")
	if home == "" && getenv("CLAUDE_CONFIG_DIR") == "" {
		return src, deps
	}
	config := settings.ConfigDir(getenv, home)
	src.CompactWindow, _ = settings.CompactWindow(config, root, model)
	for _, name := range settings.EnvFiles(config, root) {
		deps.FileDep(name)
	}
	var seen []window.Compaction
	files := map[string]string{}
	if root != "" {
		name := filepath.Join(state.Dir(root), state.Compactions)
		ix := compactions.Load(name)
		own, _ := filepath.Abs(transcript)
		var list []string
		for _, t := range compactions.Transcripts(filepath.Join(config, "projects")) {
			if abs, _ := filepath.Abs(t); abs != own {
				list = append(list, t)
			}
		}
		if ix.Update(list, compactions.Budget) && save {
			// An index that cannot be saved is read again next time.
			ix.Save(name)
		}
		seen, files = ix.Seen()
		seen = append(seen, compactions.Rows(root)...)
	}
	src.Seen = compactions.History(seen, compactions.NewSettings(config, getenv))
	used := map[string]bool{}
	for _, c := range src.Seen.Recent(version, time, session, root) {
		if f, ok := files[c.Session]; ok && !c.Row && !used[f] {
			used[f] = true
			deps.GrownDep(f)
		}
	}
	return src, deps
}
