package cli

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/skills"
)

// doctor collects what it prints and what is wrong.
type doctor struct {
	out      io.Writer
	problems []string
	// notes are what is not wrong but leaves something out, said after
	// the verdict, each with what to do.
	notes []string
}

func (d *doctor) printf(format string, a ...any) { printf(d.out, format, a...) }

// problem keeps a problem to list at the end, its text shown as printf
// shows it.
func (d *doctor) problem(format string, a ...any) {
	d.problems = append(d.problems, fmt.Sprintf(format, shownArgs(a)...))
}

// scopeSettings is one settings file as doctor read it.
type scopeSettings struct {
	place
	obj *settings.Object // nil when missing or unreadable
}

// object is the settings file's object at key, nil when there is none.
func (s scopeSettings) object(key string) *settings.Object {
	if s.obj == nil {
		return nil
	}
	v, _ := s.obj.Get(key)
	o, _ := v.(*settings.Object)
	return o
}

// runDoctor reports what is installed where, the tuning in force and what
// the newest transcripts of this project look like; exit status 1 lists
// what is wrong.
func runDoctor(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("doctor", "context-budget doctor")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "doctor", fmt.Errorf("doctor takes no arguments, got %q", fs.Arg(0)))
	}
	d := &doctor{out: stdout}
	exe, _ := hookProgram()
	d.printf("context-budget %s (%s)\n", version, exe)

	var scopes []scopeSettings
	for _, sc := range settings.Scopes {
		p, err := placeOf(sc)
		if err != nil {
			d.problem("%s settings: %v", sc, err)
			continue
		}
		scopes = append(scopes, scopeSettings{place: p})
	}
	d.printf("\nsettings:\n")
	registered := map[settings.Role]bool{}
	for i := range scopes {
		d.checkSettings(&scopes[i], registered)
	}
	if !registered[settings.PostToolUse] {
		if plugin := pluginEnabled(scopes); plugin != "" {
			d.printf("  plugin %s is enabled: its hooks run context-budget from PATH\n", plugin)
			if _, err := exec.LookPath("context-budget"); err != nil {
				d.printf("             context-budget is not on PATH: the plugin's hooks do nothing\n")
				d.problem("plugin %s: context-budget is not on PATH, so its hooks do nothing: install it with '%s' (or 'make install' in a clone)", plugin, InstallCommand)
			} else {
				d.checkBinary("plugin hooks", "context-budget")
			}
		} else {
			d.problem("no settings file registers the PostToolUse hook: run 'context-budget install'")
		}
	}
	if !registered[settings.Stop] && pluginEnabled(scopes) == "" {
		d.problem("no settings file registers the Stop hook (ledger record): run 'context-budget install'")
	}
	d.checkColdHooks(registered, scopes)
	if (!registered[settings.PreToolUse] || !registered[settings.StopFuse]) && pluginEnabled(scopes) == "" {
		d.problem("no settings file registers the spend fuse's PreToolUse and Stop hooks (context-budget hook): run 'context-budget install'")
	}
	d.checkStatusLine(scopes, registered[settings.StatusLine], pluginEnabled(scopes))
	d.checkSkills(scopes, pluginEnabled(scopes))
	s := d.checkTuning(scopes)
	d.checkPrices()
	d.checkTranscripts(s)

	defer func() {
		for _, n := range d.notes {
			d.printf("note: %s\n", n)
		}
	}()
	if len(d.problems) == 0 {
		d.printf("\nall is well\n")
		return 0
	}
	d.printf("\nproblems:\n")
	for _, p := range d.problems {
		d.printf("  - %s\n", p)
	}
	return 1
}

// checkStatusLine says what shows in Claude Code's status line when it
// is not ours (the settings list ours): the person's own, or nothing,
// and how to set ours. A plugin cannot set one, so a plugin's user is
// told the setting to add by hand.
func (d *doctor) checkStatusLine(scopes []scopeSettings, ours bool, plugin string) {
	if ours {
		return
	}
	d.printf("\nstatus line:\n")
	exe := settings.Name
	for _, s := range scopes {
		if s.obj == nil {
			continue
		}
		if _, ok := s.obj.Get(settings.StatusLineKey); ok {
			d.printf("  %s sets one of its own\n", s.file)
			d.notes = append(d.notes, fmt.Sprintf("the status line is your own (%s); %s", s.file, statusLineAdvice(exe)))
			return
		}
	}
	d.printf("  none is set: the budget shows nowhere as you work\n")
	how := "run 'context-budget install', which sets it"
	if plugin != "" {
		user := ""
		for _, s := range scopes {
			if s.scope == settings.User {
				user = " to " + s.file
			}
		}
		how = fmt.Sprintf("a plugin cannot set one: add %s%s", statusLineSetting(exe), user)
	}
	d.notes = append(d.notes, "no status line is set, so you see nothing of the budget as you work: "+how)
}

func (d *doctor) checkSettings(s *scopeSettings, registered map[settings.Role]bool) {
	o, data, err := settings.Read(s.file)
	switch {
	case err != nil && data != nil:
		d.printf("  %-8s %s: not valid JSON\n", s.scope, s.file)
		d.problem("%s is not valid JSON: %v", s.file, err)
		return
	case err != nil:
		d.printf("  %-8s %s: unreadable\n", s.scope, s.file)
		d.problem("%s: %v", s.file, err)
		return
	case data == nil:
		d.printf("  %-8s %s: not present\n", s.scope, s.file)
		s.obj = o
		return
	}
	s.obj = o
	entries, err := settings.Registered(o)
	if err != nil {
		d.printf("  %-8s %s: hooks malformed\n", s.scope, s.file)
		d.problem("%s: %v", s.file, err)
		return
	}
	if len(entries) == 0 {
		d.printf("  %-8s %s: registers nothing of ours\n", s.scope, s.file)
		return
	}
	d.printf("  %-8s %s\n", s.scope, s.file)
	for _, e := range entries {
		registered[e.Role] = true
		what := e.Role.Event + " hook"
		if e.Role == settings.StatusLine {
			what = "statusLine"
		}
		d.printf("           %s: %s\n", what, e.Command)
		d.checkBinary(fmt.Sprintf("%s in %s", what, s.file), e.Exe)
	}
}

// checkBinary runs `<exe> version` and compares it with this build.
func (d *doctor) checkBinary(where, exe string) {
	path := exe
	if !strings.ContainsRune(exe, '/') {
		p, err := exec.LookPath(exe)
		if err != nil {
			d.printf("             %s is not on PATH\n", exe)
			d.problem("%s: %s is not on PATH", where, exe)
			return
		}
		path = p
	}
	if _, err := os.Stat(path); err != nil {
		d.printf("             %s does not exist\n", path)
		d.problem("%s: %s does not exist (run 'context-budget install' again)", where, path)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "version").Output()
	got := strings.TrimSpace(string(out))
	want := "context-budget " + version
	switch {
	case err != nil:
		d.printf("             %s version failed: %v\n", path, err)
		d.problem("%s: %s does not run: %v", where, path, err)
	case got != want:
		d.printf("             %s is %q, this is %q\n", path, got, want)
		d.problem("%s: %s is another version (%q, this is %q)", where, path, got, want)
	default:
		d.printf("             binary present, same version\n")
	}
}

// pluginEnabled returns the id of our plugin when some settings file
// enables it, else "".
func pluginEnabled(scopes []scopeSettings) string {
	for _, s := range scopes {
		m := s.object("enabledPlugins")
		if m == nil {
			continue
		}
		for _, k := range m.Keys() {
			on, _ := m.Get(k)
			if strings.HasPrefix(k, settings.Name+"@") && on == true {
				return k
			}
		}
	}
	return ""
}

// checkSkills looks for the skills in each scope's skills folder; an
// enabled plugin provides them itself, under its own name.
func (d *doctor) checkSkills(scopes []scopeSettings, plugin string) {
	d.printf("\nskills:\n")
	all := skills.All()
	if len(all) == 0 {
		d.printf("  none in this build\n")
		return
	}
	var order []string
	for _, s := range scopes {
		if !slices.Contains(order, s.skillDir) {
			order = append(order, s.skillDir)
		}
	}
	for _, sk := range all {
		var found []string
		for _, dir := range order {
			name, data, err := readSkill(dir, sk)
			if err != nil {
				continue
			}
			state := "current"
			if string(data) != string(sk.Content) {
				state = "differs from this version"
			}
			found = append(found, fmt.Sprintf("%s (%s)", name, state))
		}
		if plugin != "" {
			found = append(found, fmt.Sprintf("from plugin %s (as /%s:%s)", plugin, settings.Name, sk.Name))
		}
		if len(found) == 0 {
			d.printf("  %s: missing\n", sk.Name)
			d.problem("skill %s is not installed: run 'context-budget install'", sk.Name)
			continue
		}
		d.printf("  %s: %s\n", sk.Name, strings.Join(found, ", "))
	}
}

// checkTuning shows each variable's value and where it comes from: the
// env block of the narrowest settings file that sets it (Claude Code
// applies them over the shell's, local over project over user), else the
// process environment, else the default. It returns the settings in force.
func (d *doctor) checkTuning(scopes []scopeSettings) tuning.Settings {
	d.printf("\ntuning:\n")
	effective := map[string]string{}
	for _, name := range tuning.Variables {
		value, from := os.Getenv(name), "process environment"
		for _, s := range scopes {
			if env := s.object("env"); env != nil {
				if v, ok := env.Get(name); ok {
					str, _ := v.(string)
					value, from = str, "env of "+s.file
				}
			}
		}
		effective[name] = value
		if value == "" {
			d.printf("  %-40s unset (default)\n", name)
			continue
		}
		d.printf("  %-40s %s (%s)\n", name, value, from)
	}
	s, err := tuning.FromEnv(func(k string) string { return effective[k] })
	if err != nil {
		d.problem("tuning: %v", err)
		s, _ = tuning.FromEnv(func(string) string { return "" })
	}
	return s
}

// checkPrices reports the price table's date and the user files laid
// over the built-in table, with what was skipped or ignored in them; a
// file that is refused is a problem.
func (d *doctor) checkPrices() {
	t, warnings, err := priceTable(projectRoot(""), os.Getenv, false)
	if err != nil {
		d.printf("\nprice table: %v\n", err)
		d.problem("price table: %v", err)
		return
	}
	d.printf("\nprice table: as of %s", t.AsOf)
	if len(t.Files) > 0 {
		d.printf(", with %s", strings.Join(t.Files, ", "))
	} else {
		d.printf(", built in")
	}
	d.printf("\n")
	for _, w := range warnings {
		d.printf("  warning: %s\n", w)
	}
}

func (d *doctor) checkTranscripts(s tuning.Settings) {
	root := projectRoot("")
	dir := transcriptDir(root)
	d.printf("\ntranscripts (%s):\n", dir)
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) == 0 {
		d.printf("  none for this project\n")
		return
	}
	type aged struct {
		name string
		mod  time.Time
		size int64
	}
	var list []aged
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			list = append(list, aged{f, fi.ModTime(), fi.Size()})
		}
	}
	slices.SortFunc(list, func(a, b aged) int { return cmp.Or(b.mod.Compare(a.mod), strings.Compare(a.name, b.name)) })
	const newest = 3
	for _, a := range list[:min(newest, len(list))] {
		d.printf("  %s (%s, %s)\n", filepath.Base(a.name), sizeWords(a.size), a.mod.UTC().Format("2006-01-02 15:04"))
		d.checkTranscript(a.name, root, s)
	}
}

func sizeWords(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// checkColdHooks reports a cold-cache check that cannot run: its two hooks
// are missing from every settings file (an install from before them), no
// plugin registers them, and MUTHUR_CONTEXT_BUDGET_COLD does not turn the
// check off.
func (d *doctor) checkColdHooks(registered map[settings.Role]bool, scopes []scopeSettings) {
	if pluginEnabled(scopes) != "" {
		return
	}
	if cs, err := tuning.ColdFromEnv(os.Getenv); err == nil && cs.Mode == tuning.ColdOff {
		return
	}
	for _, r := range []settings.Role{settings.UserPromptSubmit, settings.SessionStart} {
		if !registered[r] {
			d.problem("no settings file registers the %s hook (the cold-cache check): run 'context-budget install'", r.Event)
		}
	}
}

// knownType reports the record types Claude Code is known to write (up to
// 2.1.332); others are worth a mention, not an alarm.
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

// scanTranscript reads a whole transcript once, every line but those past
// reading.MaxLine (counted in long). The last line is decoded even without
// its newline; only a complete line that decodes to nothing is a bad line
// (the last one may still be being written).
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
	var sc transcriptScan
	if err == nil {
		sc, err = scanTranscript(f)
		f.Close()
	}
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
			d.printf(" · %s", notice.VerdictShort(m.Verdict))
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
