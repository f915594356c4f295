package fuse

// The guard: while a cap is armed, the tool calls that would lift the
// fuse by ordinary means are denied (design §13's threat model). It
// reads the tool's input as plain data: the paths a file tool names and,
// for Bash, the simple commands of the line (shell.go). Obfuscation (a
// command built at run time, eval of a variable, base64, a script written
// and then run) passes any hook and is out of its scope.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/ledger"
)

// place is a path the guard keeps, and what it is, for the deny.
type place struct {
	path, what string
}

// guard decides one call while a cap is armed.
type guard struct {
	getenv     func(string) string
	root, cwd  string
	places     []place
	transcript string
	memo       map[string]string // resolve's
	code       []string          // what the line's commands run as code (codeOf)
}

// placeList lists, once a call names a path to check, what a call may
// not write, move or remove: the fuse's folder, Claude Code's settings
// (user, project, local, managed), the session's transcript and its
// subagents' folder, the project's ledger rows, the price files and the
// installed programs.
func (g *guard) placeList() []place {
	if g.places != nil {
		return g.places
	}
	g.places = []place{}
	add := func(what string, paths ...string) {
		for _, p := range paths {
			if p != "" && filepath.IsAbs(p) {
				g.places = append(g.places, place{filepath.Clean(p), what})
			}
		}
	}
	if base := StateRoot(g.getenv); base != "" {
		cfg := filepath.Dir(base)
		add("the fuse's own state", base)
		add("a Claude Code settings file", filepath.Join(cfg, "settings.json"), filepath.Join(cfg, "settings.local.json"))
	}
	add("a Claude Code settings file", filepath.Join(g.root, ".claude", "settings.json"),
		filepath.Join(g.root, ".claude", "settings.local.json"))
	add("Claude Code's managed settings", "/etc/claude-code", "/Library/Application Support/ClaudeCode")
	if g.transcript != "" {
		add("the session's transcripts", g.transcript, strings.TrimSuffix(g.transcript, ".jsonl"))
	}
	add("the ledger's rows", ledger.Dir(g.root))
	add("a price file", prices.UserFile(g.getenv), prices.ProjectFile(g.root))
	if exe, err := os.Executable(); err == nil {
		dir := filepath.Dir(exe)
		add("an installed context-budget program", exe, filepath.Join(dir, "context-budget"), filepath.Join(dir, "context-budget-cli"))
	}
	return g.places
}

// resolve is path with the links on its way resolved, as far as the
// path exists; each folder on the way is looked at once per call.
func (g *guard) resolve(path string) string {
	if r, ok := g.memo[path]; ok {
		return r
	}
	r := path
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			r = real
		}
	} else if parent := filepath.Dir(path); parent != path {
		r = filepath.Join(g.resolve(parent), filepath.Base(path))
	}
	g.memo[path] = r
	return r
}

// fold is a path as the file system compares it: without case where the
// usual file systems ignore it.
func fold(p string) string {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return strings.ToLower(p)
	}
	return p
}

// Relations of a path to a place.
const (
	apart  = iota
	above  // a folder that holds it
	within // the place itself or inside it
)

// relate says how path stands to the places: within one, above one, or
// apart, with the place. Both the path and the places are taken as
// spelled and with their links resolved. A place's links are resolved
// only when it may matter: for a path above it (how is removes), or for
// one whose components hold its name; most calls name neither.
func (g *guard) relate(path string, how int) (int, place) {
	real := g.resolve(path)
	rel, pl := relation(path, g.placeList())
	if rel != within {
		if r, p := relation(real, g.places); r > rel {
			rel, pl = r, p
		}
	}
	if rel == within {
		return rel, pl
	}
	for _, p := range g.places {
		if name := filepath.Base(p.path); how != removes && !hasPart(real, name) && !hasPart(path, name) {
			continue
		}
		if r := g.resolve(p.path); r != p.path {
			if got, x := relation(real, []place{{r, p.what}}); got == within || got == above && rel == apart {
				rel, pl = got, x
			}
		}
	}
	return rel, pl
}

// relation says how a path stands to a list of places.
func relation(path string, places []place) (int, place) {
	p := fold(path)
	best, bestPlace := apart, place{}
	for _, pl := range places {
		x := fold(pl.path)
		switch {
		case p == x || under(p, x):
			return within, pl
		case under(x, p):
			best, bestPlace = above, pl
		}
	}
	return best, bestPlace
}

// under reports whether path lies in the folder dir.
func under(path, dir string) bool {
	if dir == string(filepath.Separator) {
		return len(path) > 1 && path[0] == dir[0]
	}
	return len(path) > len(dir) && path[len(dir)] == filepath.Separator && path[:len(dir)] == dir
}

// hasPart reports whether name is one of path's components.
func hasPart(path, name string) bool {
	return slices.Contains(strings.Split(path, string(filepath.Separator)), name)
}

// relateGlob is relate for a pattern: within when it can name a path in
// a place, above when it can name a folder above one.
func (g *guard) relateGlob(pattern string) (int, place) {
	pat := strings.Split(filepath.ToSlash(pattern), "/")
	for _, pl := range g.placeList() {
		parts := strings.Split(filepath.ToSlash(pl.path), "/")
		n := min(len(pat), len(parts))
		switch {
		case !slices.EqualFunc(pat[:n], parts[:n], matchPart):
		case len(pat) >= len(parts):
			return within, pl
		default:
			return above, pl
		}
	}
	return apart, place{}
}

// matchPart matches one path component as the shell does: a * or ? does
// not match a leading dot.
func matchPart(pattern, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pattern, ".") {
		return false
	}
	ok, err := filepath.Match(pattern, name)
	return ok && err == nil
}

// Verdicts of a path operand: what the command does to it.
const (
	writes  = iota // writes or replaces the path itself
	removes        // removes, moves or overwrites it and what is under it
	// named: a program not known to write may write a path it is handed:
	// it counts as writes when the path names a place in its words (a
	// settings.json, a folder context-budget), as spelled or through a
	// link; a program writing what it was not handed is out of reach.
	named
)

// check says why touching w (in dir) would lift the fuse, "" when it
// would not. A write counts within a place; a removal above one too.
func (g *guard) check(w word, dir string, how int) string {
	if w.text == "" || w.dyn && !strings.HasPrefix(w.text, "/") {
		return ""
	}
	if !filepath.IsAbs(w.text) && dir == "" {
		return ""
	}
	path := absIn(w.text, dir)
	if how == named {
		if !slices.ContainsFunc(g.placeList(), func(p place) bool { return hasPart(path, filepath.Base(p.path)) }) {
			return ""
		}
		how = writes
	}
	rel, pl := g.relate(path, how)
	if w.glob {
		rel, pl = g.relateGlob(path)
	}
	switch {
	case rel == within:
		return "write, move or remove " + pl.what + " (" + w.text + ")"
	case rel == above && how == removes:
		return "remove or move a folder that holds " + pl.what + " (" + w.text + ")"
	}
	return ""
}

// home expands a leading ~/ to the home folder.
func (g *guard) home(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(g.getenv("HOME"), rest)
	}
	return p
}

// fileKeys are the input fields by which a tool names its paths.
var fileKeys = []string{"file_path", "notebook_path", "path", "source", "destination", "target", "directory"}

// readers are the tools that only read; readVerbs start the names of
// other tools that only read, removeVerbs are in those that remove or
// move.
var (
	readers     = []string{"Read", "Glob", "Grep", "LS", "NotebookRead", "WebFetch", "WebSearch", "TodoWrite", "Task", "Agent"}
	readVerbs   = []string{"read", "list", "get", "search", "find", "view", "stat", "directory_tree", "info"}
	removeVerbs = []string{"delete", "remove", "move", "rename", "rm", "clean"}
)

// toolLifts says how a tool call other than Bash would lift the fuse: a
// tool that writes naming a path within a place, or, by a name that
// removes or moves, above one.
func (g *guard) toolLifts(tool string, input json.RawMessage) string {
	if slices.Contains(readers, tool) {
		return ""
	}
	name := tool
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = name[i+2:]
	}
	name = strings.ToLower(name)
	if slices.ContainsFunc(readVerbs, func(v string) bool { return strings.HasPrefix(name, v) }) {
		return ""
	}
	how := writes
	if slices.ContainsFunc(removeVerbs, func(v string) bool { return strings.Contains(name, v) }) {
		how = removes
	}
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	for _, k := range fileKeys {
		var many []string
		var one string
		if json.Unmarshal(in[k], &one) == nil {
			many = []string{one}
		} else {
			json.Unmarshal(in[k], &many)
		}
		for _, p := range many {
			if why := g.check(word{text: g.home(p)}, g.cwd, how); why != "" {
				return why
			}
		}
	}
	return ""
}

// bashCommand is a Bash call's command line, taken by the hook's
// streaming reader: the key exactly as the Bash tool reads it.
func bashCommand(input json.RawMessage) (string, bool) {
	var cmd string
	err := reading.NewPick(reading.Field{Path: "command", To: &cmd, Strict: true, Max: len(input)}).Decode(input)
	return cmd, err == nil
}

// Lifts says how a tool call would lift the fuse while a cap is armed,
// "" when it would not: a lifting verb of either program in any ordinary
// spelling, uninstalling the hooks, starting a session the cap would not
// cover, or writing, moving or removing what the fuse stands on.
func Lifts(c Call) string {
	g := &guard{getenv: c.Getenv, root: c.Root, cwd: cmp.Or(c.Cwd, c.Root), transcript: c.Transcript, memo: map[string]string{}}
	if c.ToolName != "Bash" {
		return g.toolLifts(c.ToolName, c.ToolInput)
	}
	line, ok := bashCommand(c.ToolInput)
	if !ok {
		return ""
	}
	cmds := parse(line, g.cwd, g.getenv)
	for i := 0; i < len(cmds); i++ {
		if why := g.command(cmds[i], &cmds); why != "" {
			return why
		}
	}
	return g.text()
}

// text reads as plain text what the line hands to a program that runs it
// as code, beyond the parse (codeOf, gathered by command): our program's name followed on the
// same line by budget and a lifting verb, or by uninstall, is a lift
// however it is run, and a place's path in it is a write the guard
// cannot rule out.
func (g *guard) text() string {
	home := g.getenv("HOME")
	for _, t := range g.code {
		for rest := t; ; {
			i := strings.Index(rest, "context-budget")
			if i < 0 {
				break
			}
			rest = rest[i+len("context-budget"):]
			seg, _, _ := strings.Cut(rest, "\n")
			if j := strings.IndexAny(seg, ";|&"); j >= 0 {
				seg = seg[:j]
			}
			budget := false
			for _, w := range strings.FieldsFunc(seg, func(r rune) bool { return (r < 'a' || r > 'z') && r != '-' }) {
				switch {
				case w == "budget":
					budget = true
				case w == "uninstall":
					return "uninstall context-budget's hooks"
				case budget && slices.Contains(liftingVerbs, w):
					return "run context-budget budget " + w
				}
			}
		}
		if !strings.Contains(t, "/") {
			continue
		}
		for _, p := range g.placeList() {
			spellings := []string{p.path}
			if rest, ok := strings.CutPrefix(p.path, home+"/"); ok && home != "" {
				spellings = append(spellings, "~/"+rest, "$HOME/"+rest, "${HOME}/"+rest)
			}
			for _, sp := range spellings {
				if strings.Contains(t, sp) {
					return "write, move or remove " + p.what + " (" + sp + ", in code the guard does not read)"
				}
			}
		}
	}
	return ""
}

// interpreters run the code they are given on their command line (-c,
// -e, a script's text) or read from a here-document.
var interpreters = []string{"python", "python2", "python3", "perl", "ruby", "node", "nodejs", "deno", "bun", "php", "lua",
	"Rscript", "osascript", "tclsh", "awk", "gawk", "mawk", "script", "expect"}

// codeOf is the text one command hands to programs that run it as code:
// an interpreter's arguments and here-document, a here-document or the
// words piped into a shell, a git alias of a shell command. args are its
// words from the program on (unwrap's; none for a shell, whose script
// unwrap reads).
func codeOf(c simple, args []word) []string {
	var out []string
	for _, w := range c.words {
		if strings.Contains(w.text, "=!") {
			out = append(out, w.text) // git -c alias.x='!cmd'
		}
	}
	prog := ""
	if len(args) > 0 {
		prog = strings.TrimRight(filepath.Base(args[0].text), "0123456789.")
	} else if len(c.words) > 0 {
		prog = filepath.Base(c.words[0].text)
	}
	switch {
	case slices.Contains(interpreters, prog):
		out = append(out, joined(args[1:]), c.input)
	case slices.Contains(shells, prog):
		out = append(out, c.input, joined(c.piped))
	}
	return out
}

// budgetFlags are the options of budget that take a value.
var budgetFlags = []string{"--session", "-session", "--project", "-project"}

// StatusOnly reports whether a tool call is exactly our CLI's budget
// status: `context-budget budget [status] [--session ID] [--project DIR]
// [--json]`, either program by name or path, nothing else on the line
// and no shell syntax. It is the one call left open past a cap.
func StatusOnly(tool string, input json.RawMessage) bool {
	if tool != "Bash" || !bytes.Contains(input, []byte("budget")) {
		return false
	}
	line, ok := bashCommand(input)
	if !ok || strings.ContainsAny(line, "$`;&|<>()\n\r\\*?[]{}=~#!") {
		return false
	}
	ws := parse(line, "", func(string) string { return "" })
	if len(ws) != 1 || ws[0].assign || len(ws[0].writes) > 0 {
		return false
	}
	w := ws[0].words
	if len(w) < 2 || !isOurs(w[0].text) || w[1].text != "budget" {
		return false
	}
	verb := false
	for i := 2; i < len(w); i++ {
		switch a := w[i].text; {
		case a == "status" && !verb:
			verb = true
		case a == "--json" || a == "-json":
		case slices.Contains(budgetFlags, a) && i+1 < len(w) && !strings.HasPrefix(w[i+1].text, "-"):
			i++
		default:
			return false
		}
	}
	return true
}

// isOurs reports whether a program word names this program, either of
// its names, as a name or a path.
func isOurs(w string) bool {
	base := strings.TrimSuffix(filepath.Base(filepath.ToSlash(w)), ".exe")
	return base == "context-budget" || base == "context-budget-cli"
}

// liftingVerbs are the budget verbs that raise, reset or drop a cap:
// re-arming sets a new baseline, so it lifts too.
var liftingVerbs = []string{"arm", "reset", "disarm"}

// readOnly are programs that only read the paths they are given.
var readOnly = []string{"cat", "less", "more", "head", "tail", "grep", "egrep", "fgrep", "rg", "ag", "ack", "jq", "yq",
	"ls", "tree", "wc", "diff", "cmp", "stat", "file", "du", "df", "md5sum", "sha1sum", "sha256sum", "sha512sum",
	"shasum", "cksum", "b2sum", "realpath", "readlink", "dirname", "basename", "echo", "printf", "test", "[",
	"cd", "pushd", "popd", "pwd", "which", "type", "hexdump", "xxd", "od", "strings", "nl", "cut", "tr", "column",
	"bat", "true", "false", "date", "sleep", "exit", "source", "."}

// writers are programs that write the files they are given.
var writers = []string{"tee", "truncate", "touch", "dd", "sed", "perl", "ruby", "mkdir", "mkfifo", "mknod", "curl",
	"wget", "sort", "uniq", "patch", "split", "csplit", "tar", "unzip", "gzip", "gunzip", "zip", "xz", "bzip2"}

// removers are programs that remove or lock out every path they are
// given.
var removers = []string{"rm", "rmdir", "unlink", "shred", "srm", "trash", "trash-put", "chmod", "chown", "chgrp", "chattr", "setfacl"}

// command says how one simple command would lift the fuse. Commands
// hidden inside it (a shell's -c, find -exec, xargs' input) are added to
// cmds to be read in turn.
func (g *guard) command(c simple, cmds *[]simple) string {
	for _, w := range c.writes {
		if why := g.check(w, c.dir, writes); why != "" {
			return why
		}
	}
	args, dir, xargs, inner := unwrap(c, g.getenv)
	*cmds = append(*cmds, inner...)
	g.code = append(g.code, codeOf(c, args)...)
	if len(args) == 0 {
		return ""
	}
	prog := filepath.Base(args[0].text)
	if isOurs(args[0].text) || prog == "go" && len(args) > 2 && args[1].text == "run" && strings.Contains(args[2].text, "context-budget") {
		return ours(args, xargs)
	}
	if why := nestedSession(prog, args); why != "" {
		return why
	}
	ops := operands(args)
	var why string
	check := func(ws []word, how int) {
		for _, w := range ws {
			if why == "" {
				why = g.check(w, dir, how)
			}
		}
	}
	// into checks dest, and dest's copy of each source, as written.
	into := func(srcs []word, dest word) {
		check([]word{dest}, writes)
		for _, src := range srcs {
			check([]word{{text: filepath.Join(dest.text, filepath.Base(src.text)), dyn: dest.dyn, glob: dest.glob}}, writes)
		}
	}
	how := writes
	switch n := len(ops); {
	case slices.Contains(removers, prog):
		how = removes
		check(ops, removes)
	case prog == "mv" || prog == "ln":
		// A link to what the fuse stands on is a way to write it.
		how = removes
		if n > 1 {
			check(ops[:n-1], removes)
			into(ops[:n-1], ops[n-1])
		} else {
			check(ops, removes)
		}
	case prog == "cp" || prog == "install" || prog == "rsync" || prog == "scp":
		if n > 1 {
			if prog == "rsync" && slices.ContainsFunc(args, func(a word) bool { return strings.HasPrefix(a.text, "--delete") }) {
				check(ops[n-1:], removes)
			}
			into(ops[:n-1], ops[n-1])
		}
	case prog == "find":
		if findWrites(args) {
			how = removes
			check(findStarts(args), removes)
		}
	case prog == "git":
		how = removes
		check(gitTouches(args, g.root, dir), removes)
	case !slices.Contains(readOnly, prog):
		// The rest may write any file they are given: the known writers
		// (tee, truncate, touch, sed -i, dd of=, curl -o…) whatever it is
		// called, any other program (a script's interpreter) a file that
		// names a place; the guard does not tell their reads from writes.
		how := named
		if slices.Contains(writers, prog) {
			how = writes
		}
		check(ops, how)
		for _, a := range args[1:] {
			if v, ok := strings.CutPrefix(a.text, "of="); ok {
				check([]word{{text: g.home(v), dyn: a.dyn, glob: a.glob}}, writes)
			}
		}
	}
	if xargs {
		// xargs adds words from its input: what the pipeline before it
		// names counts as an operand.
		check(c.piped, how)
	}
	return why
}

// ours says how a command of our program (or go run of it) would lift
// the fuse.
func ours(args []word, xargs bool) string {
	rest := args[1:]
	if filepath.Base(args[0].text) == "go" {
		rest = args[3:] // go run PKG …
	}
	sub := ""
	for len(rest) > 0 {
		a := rest[0]
		rest = rest[1:]
		if a.dyn {
			return "run context-budget with a command built at run time"
		}
		if !strings.HasPrefix(a.text, "-") {
			sub = a.text
			break
		}
	}
	switch sub {
	case "uninstall":
		return "uninstall context-budget's hooks"
	case "run":
		return "start a new session (context-budget run), which this session's cap would not cover"
	case "hook":
		return "answer a hook call by hand"
	case "budget":
	case "", "{}":
		if xargs {
			return "run context-budget with words from xargs' input"
		}
		return ""
	default:
		return ""
	}
	for len(rest) > 0 {
		a := rest[0]
		rest = rest[1:]
		switch {
		case a.dyn:
			return "run context-budget budget with a verb built at run time"
		case slices.Contains(budgetFlags, a.text):
			if len(rest) > 0 {
				rest = rest[1:]
			}
		case strings.HasPrefix(a.text, "-"):
		case slices.Contains(liftingVerbs, a.text):
			return "run context-budget budget " + a.text
		case xargs && a.text != "status":
			return "run context-budget budget with a verb from xargs' input"
		default:
			return ""
		}
	}
	if xargs {
		return "run context-budget budget with a verb from xargs' input"
	}
	return ""
}

// nestedSession says why a command starts a session the cap would not
// cover: claude itself (not its --version or --help), or its package
// through npx and the like.
func nestedSession(prog string, args []word) string {
	switch prog {
	case "npx", "bunx", "pnpx", "npm", "pnpm", "yarn", "bun":
		if slices.ContainsFunc(args[1:], func(a word) bool { return strings.Contains(a.text, "claude-code") }) {
			return "start a nested Claude Code session, which this session's cap would not cover"
		}
	case "claude", "claude.exe":
		runs := func(a word) bool { return !slices.Contains([]string{"--version", "-v", "--help", "-h"}, a.text) }
		if len(args) == 1 || slices.ContainsFunc(args[1:], runs) {
			return "start a nested claude session, which this session's cap would not cover"
		}
	}
	return ""
}

// operands are a command's words after its program that are not
// options.
func operands(args []word) []word {
	var ops []word
	dashdash := false
	for _, a := range args[1:] {
		switch {
		case dashdash:
			ops = append(ops, a)
		case a.text == "--":
			dashdash = true
		case strings.HasPrefix(a.text, "-") && len(a.text) > 1:
			if v, ok := strings.CutPrefix(a.text, "--target-directory="); ok {
				ops = append(ops, word{text: v, dyn: a.dyn, glob: a.glob})
			}
		default:
			ops = append(ops, a)
		}
	}
	return ops
}

// findActions are find's words that delete or run a command on what it
// finds.
var findActions = []string{"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}

// findWrites reports a find that deletes or runs a command on what it
// finds, unless every -name it filters by spares the names the fuse
// stands on (find . -name '*.o' -delete).
func findWrites(args []word) bool {
	acts := slices.ContainsFunc(args[1:], func(a word) bool { return slices.Contains(findActions, a.text) })
	spared := false
	for k := 1; k+1 < len(args); k++ {
		if args[k].text == "-name" || args[k].text == "-iname" {
			spared = true
			for _, n := range standsOn {
				if ok, _ := filepath.Match(strings.ToLower(args[k+1].text), n); ok {
					return acts
				}
			}
		}
	}
	return acts && !spared
}

// standsOn are names of the files and folders the fuse stands on, for a
// find's -name to be tried against.
var standsOn = []string{"settings.json", "settings.local.json", "managed-settings.json", "prices.toml", "prices.json",
	"s.jsonl", "s.json", "s.fuse", "s.spend", "s.halts", "s.fuse.lock", "day-2026-01-01.json", "context-budget",
	"context-budget-cli", ".claude", "fuse", "projects", "subagents", "sessions", "costs", "2026-01", "claude-code"}

// findStarts are the folders find starts from ("." when none).
func findStarts(args []word) []word {
	var starts []word
	for _, a := range args[1:] {
		if strings.HasPrefix(a.text, "-") || a.text == "(" || a.text == "!" {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []word{{text: "."}}
	}
	return starts
}

// gitTouches are the paths a git command overwrites or removes in the
// work tree, made absolute: clean (unless a dry run), stash with
// untracked files, reset --hard (the work tree), checkout and restore of
// paths, rm and mv.
func gitTouches(args []word, root, dir string) []word {
	i := 1
	for i < len(args) && strings.HasPrefix(args[i].text, "-") {
		if args[i].text == "-C" && i+1 < len(args) && dir != "" {
			dir = absIn(args[i+1].text, dir)
		}
		if args[i].text == "-C" || args[i].text == "-c" {
			i++
		}
		i++
	}
	if i >= len(args) || dir == "" {
		return nil
	}
	sub, rest := args[i].text, args[i+1:]
	abs := func(ws []word) []word {
		out := make([]word, 0, len(ws))
		for _, w := range ws {
			if !w.dyn {
				w.text = absIn(w.text, dir)
			}
			out = append(out, w)
		}
		return out
	}
	tree := []word{{text: dir}}
	if root != "" && (dir == root || strings.HasPrefix(dir, root+string(filepath.Separator))) {
		tree = []word{{text: root}}
	}
	has := func(flags ...string) bool {
		return slices.ContainsFunc(rest, func(a word) bool {
			return slices.ContainsFunc(flags, func(f string) bool {
				return a.text == f || len(f) == 2 && strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") && strings.Contains(a.text, f[1:])
			})
		})
	}
	paths := abs(operands(args[i:]))
	switch sub {
	case "clean":
		if has("-n", "--dry-run") {
			return nil
		}
		if len(paths) == 0 {
			return []word{{text: dir}}
		}
		return paths
	case "stash":
		if has("-u", "-a", "--include-untracked", "--all") {
			return tree
		}
	case "reset":
		if has("--hard", "--merge", "--keep") {
			return tree
		}
	case "checkout", "restore":
		if k := slices.IndexFunc(rest, func(a word) bool { return a.text == "--" }); k >= 0 {
			return abs(rest[k+1:])
		}
		if sub == "restore" {
			return paths
		}
		// git checkout X: X is a branch unless it names a path.
		return slices.DeleteFunc(paths, func(p word) bool { _, err := os.Lstat(p.text); return err != nil })
	case "rm", "mv":
		return paths
	}
	return nil
}

// wrappers are the programs that run a command given in their words
// (env's is apart), each with its options that take a value. A function:
// a package-level map would run an init in the hot program.
func wrappers() map[string][]string {
	return map[string][]string{
		"sudo":    {"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"},
		"doas":    {"-u", "-C"},
		"nice":    {"-n"},
		"stdbuf":  {"-i", "-o", "-e"},
		"ionice":  {"-c", "-n", "-p", "-P", "-u"},
		"timeout": {"-s", "-k"},
		"flock":   {"-w", "-E", "-c"},
		"exec":    {"-a"},
		"watch":   {"-n", "-d", "-q"},
		"xargs":   {"-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s"},
		"su":      {"-c", "-s", "-g", "-G"},
		"strace":  {"-o", "-e", "-p", "-s"},
		"ltrace":  {"-o", "-e", "-p", "-s"},
		"time":    {"-f", "-o"},
		"nohup":   nil, "builtin": nil, "setsid": nil, "chrt": nil, "taskset": nil, "unbuffer": nil, "caffeinate": nil,
		"command": nil, "busybox": nil,
	}
}

// shells run -c's script, a here-document or what a pipe feeds them.
var shells = []string{"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish"}

// unwrap removes env and the wrappers before a command's program and
// returns its words from the program on, the folder it runs in, whether
// xargs feeds it, and the commands hidden in it (a shell's script,
// eval's words, find's -exec).
func unwrap(c simple, getenv func(string) string) (args []word, dir string, xargs bool, inner []simple) {
	args, dir = c.words, c.dir
	sub := func(script string) { inner = append(inner, parse(script, dir, getenv)...) }
	for len(args) > 0 {
		prog := filepath.Base(args[0].text)
		skip := 1
		withValue, wrapper := wrappers()[prog]
		switch {
		case prog == "env":
		opts:
			for skip < len(args) {
				a := args[skip].text
				switch {
				case a == "-S" || a == "--split-string":
					sub(joined(args[skip+1:]))
					return nil, dir, xargs, inner
				case a == "-C" || a == "--chdir":
					if skip+1 < len(args) && dir != "" {
						dir = absIn(args[skip+1].text, dir)
					}
					skip += 2
				case a == "-u" || a == "--unset":
					skip += 2
				case strings.HasPrefix(a, "-") || isAssignment(a):
					skip++
				default:
					break opts
				}
			}
		case wrapper:
			if prog == "command" && len(args) > 1 && (args[1].text == "-v" || args[1].text == "-V") {
				return nil, dir, xargs, inner // a look-up, not a run
			}
			if prog == "su" || prog == "flock" {
				if s, ok := dashC(args); ok {
					sub(s)
					return nil, dir, xargs, inner
				}
			}
			xargs = xargs || prog == "xargs"
			skip = wrapped(prog, withValue, args)
			if prog == "watch" && !slices.ContainsFunc(args[:skip], func(w word) bool { return w.text == "-x" }) {
				sub(joined(args[skip:]))
				return nil, dir, xargs, inner
			}
		case slices.Contains(shells, prog):
			switch s, ok := dashC(args); {
			case ok:
				sub(s)
			case len(operands(args)) > 0:
				// A script file: out of reach.
			case c.input != "":
				sub(c.input)
			default:
				// Fed by a pipe: each word before it may be a line.
				for _, w := range c.piped {
					sub(w.text)
				}
			}
			return nil, dir, xargs, inner
		case prog == "eval":
			sub(joined(args[1:]))
			return nil, dir, xargs, inner
		case prog == "find":
			for k := 1; k < len(args); k++ {
				switch args[k].text {
				case "-exec", "-execdir", "-ok", "-okdir":
					end := k + 1
					for end < len(args) && args[end].text != ";" && args[end].text != "+" {
						end++
					}
					if end > k+1 {
						inner = append(inner, simple{words: args[k+1 : end], dir: dir})
					}
				}
			}
			return args, dir, xargs, inner
		default:
			return args, dir, xargs, inner
		}
		if skip >= len(args) {
			return nil, dir, xargs, inner
		}
		args = args[skip:]
		if args[0].text == "--" {
			args = args[1:]
		}
	}
	return args, dir, xargs, inner
}

// wrapped returns where the wrapped command starts in a wrapper's words:
// past the wrapper's options (and the values of those that take one) and
// its own operands (timeout's duration, flock's file, chrt's priority,
// taskset's mask).
func wrapped(prog string, withValue []string, args []word) int {
	i := 1
	for i < len(args) {
		a := args[i].text
		if a == "--" {
			return i + 1
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		if slices.Contains(withValue, a) {
			i++
		}
		i++
	}
	switch prog {
	case "timeout", "flock", "chrt", "taskset", "su":
		// One operand before the command.
		if i < len(args) {
			i++
		}
	}
	return i
}

// dashC returns the script a shell's -c (or -lc, -ec, …) runs.
func dashC(args []word) (string, bool) {
	for k := 1; k+1 < len(args); k++ {
		a := args[k].text
		if a == "-c" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
			return args[k+1].text, true
		}
	}
	return "", false
}

// joined is words as one line, for eval and the like.
func joined(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.text
	}
	return strings.Join(parts, " ")
}
