package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/hook"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/skills"
)

// place is where a scope's registrations and skills live.
type place struct {
	scope    settings.Scope
	file     string
	skillDir string
	// root is the project's root for the project and local scopes,
	// below which no link is followed (a clone's committed .claude,
	// settings file or skills folder may be one); "" for the user's own
	// config folder, whose links (dotfile managers make them) are.
	root string
}

// write replaces a file of the place, keeping the old content beside it.
func (p place) write(name string, data, old []byte) error {
	if p.root == "" {
		return settings.Write(name, data, old)
	}
	return settings.WriteIn(p.root, name, data, old)
}

// check reports what write would refuse at name, before anything is
// written (a dry run included).
func (p place) check(name string) error {
	if p.root == "" {
		return nil
	}
	return settings.CheckIn(p.root, name)
}

// files are the files install and uninstall may write at p: the settings
// file and each skill's.
func (p place) files() []string {
	names := []string{p.file}
	for _, s := range skills.All() {
		names = append(names, filepath.Join(p.skillDir, s.Name, "SKILL.md"))
	}
	return names
}

// remove removes a skill's file of the place and its folder if empty.
func (p place) remove(name string) error {
	if p.root == "" {
		if err := os.Remove(name); err != nil {
			return err
		}
		os.Remove(filepath.Dir(name))
		return nil
	}
	return settings.RemoveIn(p.root, name)
}

// linkHint is the hint for a refused link in a project.
const linkHint = "a project's .claude, settings files and skills folder must not be symbolic links: replace the link with the file or folder itself, or install --scope user"

// placeOf resolves a scope to its settings file and skills folder.
func placeOf(sc settings.Scope) (place, error) {
	home, err := os.UserHomeDir()
	if err != nil && sc == settings.User && os.Getenv("CLAUDE_CONFIG_DIR") == "" {
		return place{}, fmt.Errorf("cannot find the home folder: %v", err)
	}
	config := settings.ConfigDir(os.Getenv, home)
	root := ""
	if sc != settings.User {
		root = projectRoot("")
		// A project that is not there is a mistake (a stale
		// $CLAUDE_PROJECT_DIR, say), not a tree to make.
		if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
			return place{}, fmt.Errorf("the project root %s is not a folder", root)
		}
	}
	return place{sc, settings.File(sc, config, root), settings.SkillsDir(sc, config, root), root}, nil
}

// scopeFlags parses the flags install and uninstall share.
func scopeFlags(name string, args []string, stdout, stderr io.Writer, statusLine *bool) (settings.Scope, bool, int) {
	synopsis := "context-budget uninstall [--scope user|project|local] [--dry-run]"
	if statusLine != nil {
		synopsis = "context-budget install [--scope user|project|local] [--no-statusline] [--dry-run]"
	}
	fs := newFlags(name, synopsis)
	scope := fs.String("scope", "user", "which settings to edit: user, project or local")
	dry := fs.Bool("dry-run", false, "print the change and write nothing")
	if statusLine != nil {
		fs.BoolVar(statusLine, "no-statusline", false, "leave the status line alone (by default install sets it unless the settings have one)")
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return "", false, code
	}
	if fs.NArg() > 0 {
		return "", false, usageError(stderr, name, fmt.Errorf("%s takes no arguments, got %q", name, fs.Arg(0)))
	}
	sc, err := settings.ParseScope(*scope)
	if err != nil {
		return "", false, usageError(stderr, name, err)
	}
	return sc, *dry, -1
}

func runInstall(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	var noStatusLine bool
	sc, dry, code := scopeFlags("install", args, stdout, stderr, &noStatusLine)
	if code >= 0 {
		return code
	}
	exe, err := hookProgram()
	if err != nil {
		return fail(stderr, fmt.Errorf("cannot find this program's path: %v", err), "")
	}
	p, err := placeOf(sc)
	if err != nil {
		return fail(stderr, err, "run it in the project, or set CLAUDE_PROJECT_DIR to its root")
	}
	if sc == settings.Project {
		// The project's settings are committed and run on every
		// teammate's machine, where this path means nothing: name the
		// program, found on PATH there as the plugin's hooks do.
		defer printf(stdout, "note: %s is shared with the team, so its hooks run %q from PATH, not this machine's %s; each teammate installs the program (%s)\n",
			p.file, settings.Name, exe, InstallCommand)
		exe = settings.Name
	}
	roles := []settings.Role{settings.PostToolUse, settings.Stop, settings.PreToolUse, settings.StopFuse, settings.SubagentStop,
		settings.UserPromptSubmit, settings.SessionStart}
	foreign := false
	code = edit(p, dry, stdout, stderr, func(o *settings.Object) ([]string, error) {
		changes, err := settings.Install(o, exe, roles)
		if err != nil || noStatusLine {
			return changes, err
		}
		more, err := settings.Install(o, exe, []settings.Role{settings.StatusLine})
		if errors.Is(err, settings.ErrForeignStatusLine) {
			// The person's own status line stays; ours is theirs to add.
			foreign, err = true, nil
		}
		return append(changes, more...), err
	}, installSkills(p, skills.All()))
	if code != 0 || dry {
		return code
	}
	if foreign {
		printf(stdout, "note: %s already has a status line of its own, left as it is; %s\n", p.file, statusLineAdvice(exe))
	}
	if dir := filepath.Dir(exe); !onPath(dir) && sc != settings.Project {
		printf(stdout, "warning: %s is not on your PATH: add it (export PATH=\"%s:$PATH\" in your shell's profile) so that you can run context-budget by name\n", dir, dir)
	}
	printf(stdout, "next:\n  see it work on your past sessions:  context-budget replay --html report.html\n  an unattended run across relays:    context-budget run \"PROMPT\"\n  what the status line's words mean:  context-budget help statusline\n")
	return 0
}

// statusLineAdvice says how to see the budget beside a status line of
// one's own, exe being the program the status line would run.
func statusLineAdvice(exe string) string {
	return fmt.Sprintf("to see the budget there too, have it print the first line of `%s statusline` (it reads the same JSON on stdin), or set %s",
		exe, statusLineSetting(exe))
}

// statusLineSetting is the settings entry of our status line.
func statusLineSetting(exe string) string {
	return fmt.Sprintf(`"statusLine": {"type": "command", "command": %q}`, settings.Command(exe, settings.StatusLine))
}

// onPath reports whether dir is one of PATH's folders.
func onPath(dir string) bool {
	want, err := filepath.EvalSymlinks(dir)
	if err != nil {
		want = dir
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if got, err := filepath.EvalSymlinks(d); err == nil && got == want || d == dir {
			return true
		}
	}
	return false
}

// hookProgram is the absolute path of the program the hooks run:
// context-budget beside this program when this is context-budget-cli, as
// installed, else this program itself, which serves the hook too.
func hookProgram() (string, error) {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.Abs(exe)
	}
	if err != nil {
		return "", err
	}
	ext := filepath.Ext(exe)
	if strings.TrimSuffix(filepath.Base(exe), ext) == hook.FullName {
		beside := filepath.Join(filepath.Dir(exe), settings.Name+ext)
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() {
			return beside, nil
		}
	}
	return exe, nil
}

func runUninstall(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	sc, dry, code := scopeFlags("uninstall", args, stdout, stderr, nil)
	if code >= 0 {
		return code
	}
	p, err := placeOf(sc)
	if err != nil {
		return fail(stderr, err, "")
	}
	return edit(p, dry, stdout, stderr, settings.Uninstall, removeSkills(p, skills.All()))
}

// edit applies change to the settings file of p and skills to its skills
// folder, printing what it did (or, dry, what it would do).
func edit(p place, dry bool, stdout, stderr io.Writer,
	change func(*settings.Object) ([]string, error),
	skills func(dir string, dry bool) ([]string, error)) int {
	// Every file the command may write is checked before any is: a
	// refused link leaves everything as it was.
	for _, name := range p.files() {
		if err := p.check(name); err != nil {
			return fail(stderr, fmt.Errorf("%w; left everything untouched", err), hintFor(err))
		}
	}
	o, old, err := settings.Read(p.file)
	if err != nil {
		if old != nil {
			return fail(stderr, fmt.Errorf("%s is not valid JSON (%v); left it untouched", p.file, err),
				"fix the file by hand, then run this again")
		}
		return fail(stderr, err, "")
	}
	changes, err := change(o)
	if err != nil {
		return fail(stderr, fmt.Errorf("%s: %v; left it untouched", p.file, err), "")
	}
	if data := settings.Encode(o); len(changes) > 0 && dry {
		io.WriteString(stdout, shownLines(settings.Diff(p.file, p.file+" (after)", append([]byte{}, old...), data)))
	} else if len(changes) > 0 {
		if err := p.write(p.file, data, old); err != nil {
			return fail(stderr, err, hintFor(err))
		}
	}
	settingsChanged := len(changes) > 0
	skillChanges, err := skills(p.skillDir, dry)
	if err != nil {
		return fail(stderr, err, hintFor(err))
	}
	// A skill left in place is worth saying but changes nothing.
	var notes []string
	for _, c := range skillChanges {
		if strings.HasPrefix(c, notePrefix) {
			notes = append(notes, c)
		} else {
			changes = append(changes, c)
		}
	}
	defer func() {
		for _, n := range notes {
			printf(stdout, "%s\n", n)
		}
	}()
	switch {
	case len(changes) == 0:
		printf(stdout, "%s: nothing to change\n", p.file)
		return 0
	case dry:
		printf(stdout, "dry run, nothing written; it would change %s:\n", p.file)
	default:
		printf(stdout, "changed %s:\n", p.file)
	}
	for _, c := range changes {
		printf(stdout, "  %s\n", c)
	}
	if !dry && old != nil && settingsChanged {
		printf(stdout, "the previous file is kept in %s\n", settings.BackupName(p.file))
	}
	return 0
}

// hintFor is the hint for a write's error: how to undo a refused link.
func hintFor(err error) string {
	if errors.Is(err, atomicfile.ErrLink) {
		return linkHint
	}
	return ""
}

// notePrefix marks a line of a skills step that reports without
// changing anything.
const notePrefix = "note: "

// readSkill reads the file of skill s in the skills folder dir.
func readSkill(dir string, s skills.Skill) (name string, data []byte, err error) {
	name = filepath.Join(dir, s.Name, "SKILL.md")
	data, err = reading.ReadFile(name, reading.MaxSkill)
	return name, data, err
}

// installSkills copies skills into dir/<name>/SKILL.md, replacing an
// older copy. The file it replaces may be the user's own skill of the
// same name or one they edited, so it is kept beside it as SKILL.md.bak,
// as settings.json is; the new file is written atomically.
func installSkills(p place, all []skills.Skill) func(dir string, dry bool) ([]string, error) {
	return func(dir string, dry bool) ([]string, error) {
		var changes []string
		for _, s := range all {
			name, cur, err := readSkill(dir, s)
			if err == nil && bytes.Equal(cur, s.Content) {
				continue
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			change := fmt.Sprintf("skill %s: added %s", s.Name, name)
			if err == nil {
				change = fmt.Sprintf("skill %s: updated %s (the previous one is kept in %s)", s.Name, name, settings.BackupName(name))
			}
			changes = append(changes, change)
			if dry {
				continue
			}
			if err := p.write(name, s.Content, cur); err != nil {
				return nil, err
			}
		}
		return changes, nil
	}
}

// removeSkills removes the skills install copied, but only where the file
// is still ours word for word: a skill the user edited is theirs now.
func removeSkills(p place, all []skills.Skill) func(dir string, dry bool) ([]string, error) {
	return func(dir string, dry bool) ([]string, error) {
		var changes []string
		for _, s := range all {
			name, cur, err := readSkill(dir, s)
			if err != nil {
				continue
			}
			if !bytes.Equal(cur, s.Content) {
				changes = append(changes, fmt.Sprintf("%sskill %s: left %s, it differs from this version's", notePrefix, s.Name, name))
				continue
			}
			changes = append(changes, fmt.Sprintf("skill %s: removed %s", s.Name, name))
			if dry {
				continue
			}
			// The folder goes too when nothing else is in it.
			if err := p.remove(name); err != nil {
				return nil, err
			}
			if _, err := os.Lstat(settings.BackupName(name)); err == nil {
				changes = append(changes, fmt.Sprintf("%sskill %s: left %s, the file install replaced", notePrefix, s.Name, settings.BackupName(name)))
			}
		}
		return changes, nil
	}
}
