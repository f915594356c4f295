package guard

// Code handed to an interpreter, and text piped or fed into a shell,
// read as text: the guard does not run it, so it looks for what the code
// names the way code names it (design §13, turn 4).

import (
	"path/filepath"
	"slices"
	"strings"
)

// code is text a command hands to a program that runs it as code, and
// the folder it runs in ("" when unknown).
type code struct {
	text, dir string
}

// text reads as plain text what the line hands to a program that runs it
// as code, beyond the parse (codeOf, gathered by command): our program's
// name followed on the same line by budget and a lifting verb, or by
// uninstall, is a lift however it is run; Claude Code's program names a
// nested session; and a place named in it, spelled whole or built the
// way code builds paths (pathsIn), is a write the guard cannot rule out.
func (g *guard) text() string {
	home := g.getenv("HOME")
	for _, c := range g.code {
		t := c.text
		if why := liftIn(t); why != "" {
			return why
		}
		if t == "" {
			continue
		}
		for _, s := range literals(t) {
			if s == "claude" || s == "claude.exe" || strings.HasPrefix(s, "claude ") || claudeCode(s) || procExe(s) {
				return "start a nested Claude Code session, which this session's cap would not cover (" + s + ", in code the guard does not read)"
			}
		}
		for _, s := range agentCode {
			if len(wordEnds(t, s)) > 0 {
				return "start a nested Claude Code session, which this session's cap would not cover (" + s + ", in code the guard does not read)"
			}
		}
		if w := detachesIn(t); w != "" {
			return "start a command away from this session (" + w + ", in code the guard does not read), where the CLI cannot tell that Claude Code started it"
		}
		if w := ptyIn(t); w != "" {
			return ptyWhy(w + ", in code the guard does not read")
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
		if sfx := suffixIn(t); sfx != "" {
			return "remove or write the fuse's files by their names (" + sfx + ", in code the guard does not read)"
		}
		// A path within a place first: a join that names a settings
		// file passes the folder that holds it on its way.
		var above string
		paths := pathsIn(t, c.dir, g.codeRoots())
		for _, p := range paths {
			switch why, in := g.named(p); {
			case in:
				return why + ", in code the guard does not read)"
			case above == "":
				above = why
			}
		}
		if above != "" {
			return above + ", in code the guard does not read)"
		}
		if slices.ContainsFunc(treeCalls, func(w string) bool { return len(wordEnds(t, w)) > 0 }) {
			// A folder copied or unpacked where it names: into a folder
			// above a place, its content may replace the place.
			for _, p := range paths {
				if why := g.check(word{text: p}, c.dir, fills); why != "" {
					return why[:len(why)-1] + ", in code the guard does not read)"
				}
			}
		}
	}
	return ""
}

// treeCalls are what code calls to copy or unpack a folder's content
// (Python's shutil and tarfile/zipfile, node's fs, Ruby's FileUtils,
// Perl's File::Copy::Recursive).
var treeCalls = []string{"copytree", "copy_tree", "unpack_archive", "extractall", "cpSync", "copySync", "cp_r", "copy_entry",
	"dircopy", "rcopy"}

// liftIn finds our program's name followed on the same line by budget and
// a lifting verb, or by uninstall.
func liftIn(t string) string {
	for rest := t; ; {
		i := strings.Index(rest, "context-budget")
		if i < 0 {
			return ""
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
}

// detachesIn finds code that starts a process away from the session, as
// the starters do in a shell: a new session (setsid, start_new_session,
// setpgrp), a daemon, or a child spawned detached (detached: true).
func detachesIn(t string) string {
	for _, w := range []string{"setsid", "start_new_session", "setpgrp", "daemonize", "Daemon", "detached"} {
		for _, end := range wordEnds(t, w) {
			if w == "detached" {
				// The option, not the word: detached: true, detached=True.
				if rest := strings.TrimLeft(t[end:], " \t'\""); rest == "" || rest[0] != ':' && rest[0] != '=' {
					continue
				}
			}
			return w
		}
	}
	return ""
}

// ptyIn finds code that gives a command a pseudo-terminal, as the pty
// makers do in a shell: the pty module or a library of its kind (Python's
// pty and pexpect, Ruby's PTY, Perl's IO::Pty, node-pty, zsh's zpty),
// the C calls (openpty, forkpty, posix_openpt), socat's pty option in a
// command the code runs, or a pty maker by name. Naming the module
// counts, not only calling it: from pty import spawn as s hides the
// call, and while a cap holds a session has no use for either.
func ptyIn(t string) string {
	lower := strings.ToLower(t)
	for _, w := range []string{"pty", "openpty", "forkpty", "posix_openpt", "pexpect", "ptyprocess", "zpty", "unbuffer", "dtach", "abduco"} {
		if len(wordEnds(lower, w)) > 0 {
			return w
		}
	}
	return ""
}

// wordEnds are where w ends in s, where it stands as a word of its own.
func wordEnds(s, w string) []int {
	var ends []int
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return ends
		}
		j += i
		end := j + len(w)
		if (j == 0 || !wordByte(s[j-1])) && (end == len(s) || !wordByte(s[end])) {
			ends = append(ends, end)
		}
		i = end
	}
}

// named says why code naming path would lift the fuse, and whether path
// is within a place: a path within a place, or a folder above one inside
// the user's Claude Code config folder or the project's .claude (code may
// remove what it names; the guard cannot tell). The reason is left open
// for text to close.
func (g *guard) named(path string) (string, bool) {
	var rel int
	var pl place
	if strings.ContainsAny(path, "*?[") {
		rel, pl = g.relateGlob(path)
	} else {
		rel, pl = g.relate(path, removes)
	}
	switch {
	case rel == within:
		return "write, move or remove " + pl.what + " (" + path, true
	case rel == above && g.inConfig(path):
		return "remove or move a folder that holds " + pl.what + " (" + path, false
	}
	return "", false
}

// inConfig reports whether path is the user's Claude Code config folder
// or the project's .claude, or lies in one.
func (g *guard) inConfig(path string) bool {
	for _, root := range []string{filepath.Dir(g.stateRoot), filepath.Join(g.root, ".claude")} {
		if root != "." && root != ".claude" && (path == root || under(path, root)) {
			return true
		}
	}
	return false
}

// maxLiterals bounds the strings of one code text read as paths.
const maxLiterals = 512

// literals are the quoted strings of code ('…', "…", `…`), at most
// maxLiterals of them.
func literals(t string) []string {
	var out []string
	for _, tok := range tokens(t) {
		if tok.quoted && len(out) < maxLiterals {
			out = append(out, tok.text)
		}
	}
	return out
}

// token is a quoted string of code, or the code between two.
type token struct {
	text   string
	quoted bool
}

// tokens splits code into its quoted strings and what lies between them.
// A backslash escapes the next byte in a string.
func tokens(t string) []token {
	var out []token
	start := 0
	for i := 0; i < len(t); i++ {
		q := t[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		if i > start {
			out = append(out, token{text: t[start:i]})
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(t) && t[j] != q; j++ {
			if t[j] == '\\' && j+1 < len(t) {
				j++
			}
			b.WriteByte(t[j])
		}
		out = append(out, token{text: b.String(), quoted: true})
		i, start = j, j+1
	}
	if start < len(t) {
		out = append(out, token{text: t[start:]})
	}
	return out
}

// StateSuffixes are the suffixes of the fuse's own files after a
// session's id (the fuse's ArmSuffix, SpendSuffix, HaltsSuffix and
// WitnessSuffix; its tests hold the two lists together).
var StateSuffixes = []string{".fuse", ".spend", ".halts", ".witness"}

// suffixIn finds a string of code that selects files by one of the
// fuse's own suffixes (f.endswith('.fuse'), glob('**/*.spend')): code
// walking a folder for them reaches the fuse's files wherever they are.
func suffixIn(t string) string {
	for _, s := range literals(t) {
		for _, sfx := range StateSuffixes {
			if strings.HasSuffix(s, sfx) && strings.Trim(strings.TrimSuffix(s, sfx), "*/") == "" {
				return s
			}
		}
	}
	return ""
}

// codeRoot is a folder code reaches by a name: an environment variable
// or a call that returns it (words), and the folder (path).
type codeRoot struct {
	words []string
	path  string
}

// codeRoots are the folders code reaches by name: the home folder (HOME,
// homedir(), Path.home(), …), the Claude Code config folder
// (CLAUDE_CONFIG_DIR) and the user's state folder (XDG_STATE_HOME), each
// as the hook's environment has it (the latter two by their defaults
// under the home folder when unset).
func (g *guard) codeRoots() []codeRoot {
	home := g.getenv("HOME")
	orHome := func(name string, below ...string) string {
		if v := g.getenv(name); filepath.IsAbs(v) {
			return v
		}
		if home == "" {
			return ""
		}
		return filepath.Join(append([]string{home}, below...)...)
	}
	return []codeRoot{
		{[]string{"HOME", "home", "homedir", "UserHomeDir", "expanduser"}, home},
		{[]string{"CLAUDE_CONFIG_DIR"}, orHome("CLAUDE_CONFIG_DIR", ".claude")},
		{[]string{"XDG_STATE_HOME"}, orHome("XDG_STATE_HOME", ".local", "state")},
	}
}

// rootIn is where code names a root folder (codeRoots) in s, its last
// such, and the folder: at -1 when it names none. Of two names ending at
// one place (XDG_STATE_HOME, HOME), the longer is meant.
func rootIn(s string, roots []codeRoot) (path string, at int) {
	at = -1
	best := 0
	for _, r := range roots {
		if r.path == "" {
			continue
		}
		for _, w := range r.words {
			for _, end := range wordEnds(s, w) {
				if end > at || end == at && len(w) > best {
					path, at, best = r.path, end, len(w)
				}
			}
		}
	}
	return path, at
}

// pathsIn finds the paths code names, the ways code names them: a string
// that is a path, absolute, ~/… or relative (to dir), each word of a
// string holding spaces (a shell command in code); and a root folder
// however code reaches it (codeRoots: HOME or CLAUDE_CONFIG_DIR from its
// environment, homedir(), Path.home(), Dir.home, $ENV{HOME} or ${HOME}
// in a string), joined with the strings that follow it (+, a join's
// commas, a path's /) up to the first part that is not a string. Each
// path is given as it grows, so a join that goes on past a file
// (open(…, 'w')) still names the file.
func pathsIn(t, dir string, roots []codeRoot) []string {
	var out []string
	add := func(p string) {
		if len(out) < maxLiterals {
			out = append(out, p)
		}
	}
	home := roots[0].path
	// In a string, only a variable's name names a root ($HOME/…, not
	// /home/…).
	var vars []codeRoot
	for _, r := range roots {
		v := codeRoot{path: r.path}
		for _, w := range r.words {
			if strings.ToUpper(w) == w {
				v.words = append(v.words, w)
			}
		}
		vars = append(vars, v)
	}
	// Code that reaches the home folder anywhere may hold it in a name of
	// its own (h = os.homedir(); h + '/.claude/…'): a string that starts
	// with .claude is then taken in the home folder too. /.claude at the
	// root is no folder anyone means.
	_, homeAt := rootIn(t, roots[:1])
	homeRef := home != "" && (homeAt >= 0 || strings.Contains(t, "~"))
	cur := "" // the path being joined, "" when none
	for _, tok := range tokens(t) {
		s := tok.text
		if !tok.quoted {
			if p, at := rootIn(s, roots); at >= 0 {
				cur = ""
				if joins(s[at:]) {
					cur = p
				} else {
					add(p) // the root folder itself, handed on
				}
			} else if !joins(s) {
				cur = ""
			}
			continue
		}
		if p, at := rootIn(s, vars); at == len(s) && len(strings.Fields(s)) == 1 && !strings.ContainsAny(s, "/$") {
			// os.environ['HOME'], ENV["CLAUDE_CONFIG_DIR"]
			cur = p
			continue
		}
		switch {
		case cur != "" && (s == "~" || strings.HasPrefix(s, "~/")):
			cur = filepath.Join(home, s[1:])
			add(cur)
			continue
		case cur != "" && !strings.ContainsAny(s, " \t\n"):
			s = strings.TrimLeft(s, "]})'\"")
			switch {
			case filepath.IsAbs(s):
				add(filepath.Clean(s)) // a join's absolute part starts afresh
			case (s == "." || s == "..") && dir != "":
				add(absIn(s, dir)) // more likely an argument of its own
			}
			cur = filepath.Join(cur, s)
			add(cur)
			continue
		}
		cur = ""
		for _, w := range strings.Fields(s) {
			if len(w) > 4096 {
				continue
			}
			if p, i := rootIn(w, vars); i >= 0 {
				// $HOME/…, ${CLAUDE_CONFIG_DIR}/…, $ENV{HOME}/…,
				// {os.environ["HOME"]}/…
				cur = filepath.Join(p, strings.TrimLeft(w[i:], "}])'\""))
				add(cur)
				continue
			}
			if home != "" && (strings.HasPrefix(w, "/.claude") || homeRef && strings.HasPrefix(w, ".claude")) {
				add(filepath.Join(home, w))
			}
			switch {
			case w == "~" || strings.HasPrefix(w, "~/"):
				if home != "" {
					cur = filepath.Join(home, w[1:])
					add(cur)
				}
			case filepath.IsAbs(w):
				cur = procPath(w, dir)
				add(cur)
			case dir != "" && !strings.ContainsAny(w, "$%{}<>|&;=:\\"):
				cur = absIn(w, dir)
				add(cur)
			}
		}
		if len(strings.Fields(s)) != 1 {
			cur = ""
		}
	}
	return out
}

// wordByte reports a byte of an identifier.
func wordByte(c byte) bool { return nameByte(c, false) }

// joins reports code between strings that joins them into one path: only
// brackets closing, +, /, commas and spaces, or a join's call opening
// (os.path.join(, Path(, File.join().
func joins(s string) bool {
	s = strings.TrimSpace(s)
	for _, call := range []string{"os.path.join(", "path.join(", "File.join(", "Path(", "join("} {
		s = strings.TrimSuffix(s, call)
	}
	return strings.Trim(s, " \t+/,()[]{}") == ""
}

// interpreters run the code they are given on their command line (-c,
// -e, a script's text) or read from a here-document; so do the programs
// that run commands of their own language or a shell's from their words
// or their input (make -f -, sqlite3's .system, vim -c '!…', gdb -ex).
var interpreters = []string{"python", "python2", "python3", "perl", "ruby", "node", "nodejs", "deno", "bun", "php", "lua",
	"Rscript", "osascript", "tclsh", "awk", "gawk", "mawk", "script", "expect", "make", "gmake", "sqlite3", "vim", "vi", "nvim",
	"ex", "ed", "emacs", "gdb", "lldb", "irb", "pwsh", "julia"}

// codeOf is the text one command hands to programs that run it as code:
// an interpreter's arguments and here-document, a here-document or the
// words piped into a shell, a git alias of a shell command. args are its
// words from the program on (unwrap's; none for a shell, whose script
// unwrap reads); dir the folder it runs in.
func codeOf(c simple, args []word, dir string) []code {
	var out []code
	for _, w := range c.words {
		if strings.Contains(w.text, "=!") {
			out = append(out, code{w.text, dir}) // git -c alias.x='!cmd'
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
		out = append(out, code{joined(args[1:]), dir}, code{c.input, dir})
	case slices.Contains(shells, prog):
		out = append(out, code{c.input, dir}, code{joined(c.piped), dir})
	}
	return out
}
