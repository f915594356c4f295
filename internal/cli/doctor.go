package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/skills"
)

// doctor collects what it prints and what is wrong.
type doctor struct {
	out      io.Writer
	problems []string
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
	d.checkSkills(scopes, pluginEnabled(scopes))
	s := d.checkTuning(scopes)
	d.checkPrices()
	d.checkTranscripts(s)

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
		if s.obj == nil {
			continue
		}
		v, _ := s.obj.Get("enabledPlugins")
		m, ok := v.(*settings.Object)
		if !ok {
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
	dirs := map[string]bool{}
	var order []string
	for _, s := range scopes {
		if !dirs[s.skillDir] {
			dirs[s.skillDir] = true
			order = append(order, s.skillDir)
		}
	}
	for _, sk := range all {
		var found []string
		for _, dir := range order {
			name := filepath.Join(dir, sk.Name, "SKILL.md")
			data, err := reading.ReadFile(name, reading.MaxSkill)
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
			if s.obj == nil {
				continue
			}
			ev, _ := s.obj.Get("env")
			env, ok := ev.(*settings.Object)
			if !ok {
				continue
			}
			if v, ok := env.Get(name); ok {
				str, _ := v.(string)
				value, from = str, "env of "+s.file
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
	home, _ := os.UserHomeDir()
	dir := filepath.Join(settings.ConfigDir(os.Getenv, home), "projects", projectFolder())
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
	sort.Slice(list, func(i, j int) bool {
		if !list[i].mod.Equal(list[j].mod) {
			return list[i].mod.After(list[j].mod)
		}
		return list[i].name < list[j].name
	})
	const newest = 3
	for _, a := range list[:min(newest, len(list))] {
		d.printf("  %s (%s, %s)\n", filepath.Base(a.name), sizeWords(a.size), a.mod.UTC().Format("2006-01-02 15:04"))
		d.checkTranscript(a.name, root, s)
	}
}

// projectFolder is this project's folder name under <config>/projects:
// $CLAUDE_CODE_PROJECT_DIR_NAME when set, else the slug of the root.
func projectFolder() string {
	if n := os.Getenv("CLAUDE_CODE_PROJECT_DIR_NAME"); n != "" {
		return n
	}
	root, err := filepath.Abs(projectRoot(""))
	if err != nil {
		root = projectRoot("")
	}
	return settings.ProjectSlug(root)
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
