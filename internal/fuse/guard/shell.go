package guard

// A small shell reader for the guard (guard.go): it splits a Bash
// command into the simple commands it runs, with their words unquoted,
// the files their redirections write and the folder each runs in, so the
// guard sees through ordinary spellings (quotes, ; && || | &, $(…),
// backticks, ( … ), { …; }, here-documents, cd DIR && …). It expands ~
// and the variables the hook knows (HOME, PWD, CLAUDE_PROJECT_DIR, …);
// a word built from anything else is marked dynamic. It is not a shell:
// a command built at run time is out of its reach, and of any hook's.

import (
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// word is one word of a command, unquoted and expanded as far as the
// reader can. dyn says part of it came from a substitution or a variable
// the reader does not know; glob that it holds an unquoted * ? or [.
// alts are the other words it may stand for: a variable the line set to
// several words (for f in …, read f from a pipe), or what a command
// substitution's commands name ($(find ~/.claude …)). more are the
// words after it that brace expansion makes of it (a{b,c} is ab ac),
// which its alts hold too, for where it stands alone (a redirection).
// pat is, for a dynamic word, the word with each part the reader could
// not expand marked (unknownMark), and each it expanded from
// CLAUDE_CODE_EXECPATH by an operator (execMark); "" when it has none.
// claude says part of it expands CLAUDE_CODE_EXECPATH, with or without
// an operator: Claude Code's program, however the word goes on to change
// its name.
type word struct {
	text      string
	pat       string
	dyn, glob bool
	claude    bool
	alts      []word
	more      []word
}

// The marks of a word's pat: a part the reader could not expand, and one
// it took from CLAUDE_CODE_EXECPATH through an operator.
const (
	unknownMark = "\x04"
	execMark    = "\x05"
)

// reread is the word as a shell reading it again sees it (a shell's -c,
// eval): a part unknown here is unknown there too ($?), and Claude
// Code's program stays so (${CLAUDE_CODE_EXECPATH%} is the variable).
func (w word) reread() string {
	if w.pat != "" {
		return strings.NewReplacer(unknownMark, "$?", execMark, "${"+execVar+"%}").Replace(w.pat)
	}
	return w.text
}

// pattern is the word as a pattern, each marked part standing for any
// text (*); ok is false when it knows nothing but the folder marks.
func (w word) pattern() (string, bool) {
	p := strings.NewReplacer(unknownMark, "*", execMark, "*").Replace(w.pat)
	return p, strings.Trim(w.pat, unknownMark+execMark+"/") != ""
}

// simple is one simple command: its words, the assignments before the
// program dropped (assign says there were some, vars names them); the
// files its redirections write; the folder it runs in ("" when a cd made
// it unknowable); the text of its here-document or here-string; and what
// the commands before it in its pipeline may write to it (produced: what
// xargs and read take).
type simple struct {
	words      []word
	assign     bool
	vars       []string
	writes     []word
	dir, input string
	piped      []word
}

// parser reads a command line into simple commands. vars are the
// variables the line sets, in the order it sets them: a variable holding
// a path carries it to where it is used.
type parser struct {
	getenv func(string) string
	out    []simple
	depth  int
	vars   map[string][]word
	oldpwd string // the folder before the line's last cd
}

// maxDepth bounds nested substitutions and shells; maxCommands the
// commands one line yields. A line past them is read no further.
const (
	maxDepth    = 8
	maxCommands = 1000
)

// parse reads line, run in dir, into its simple commands.
func parse(line, dir string, getenv func(string) string) []simple {
	p := &parser{getenv: getenv}
	p.script(line, dir)
	return p.out
}

// heredoc is a here-document waiting for its body, after the newline.
type heredoc struct {
	delim string
	strip bool // <<- strips leading tabs
	cmd   int  // index of its command in out, -1 when it had none
}

// script reads a list of commands run in dir.
func (p *parser) script(s, dir string) {
	if p.depth >= maxDepth {
		return
	}
	p.depth++
	defer func() { p.depth-- }()
	dirs := []string{dir}
	cur := simple{dir: dir}
	var pipe []word
	var pending []heredoc
	var heredocNext, herestringNext, writeNext, readNext bool
	end := func(piped bool) {
		if p.sets(cur) {
			cur.words = nil // for f in …: a loop's words, not a command
		}
		if len(cur.words) > 0 || len(cur.writes) > 0 || len(cur.vars) > 0 {
			if len(p.out) < maxCommands {
				p.out = append(p.out, cur)
				for k := range pending {
					if pending[k].cmd == waiting {
						pending[k].cmd = len(p.out) - 1
					}
				}
			}
			if d, ok := p.cd(cur); ok {
				p.oldpwd, dirs[len(dirs)-1] = dirs[len(dirs)-1], d
			}
		}
		if piped {
			pipe = append(pipe, produced(cur)...)
		} else {
			pipe = nil
		}
		cur = simple{dir: dirs[len(dirs)-1], piped: pipe}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '\n':
			end(false)
			i++
			heredocNext = false // a << with no delimiter on its line
			// Here-documents' bodies follow the line that named them.
			for _, h := range pending {
				body, next := heredocBody(s, i, h)
				i = next
				if h.cmd >= 0 && h.cmd < len(p.out) {
					p.out[h.cmd].input = body
				}
			}
			pending = nil
		case c == '<' || c == '>' || c == '&' && i+1 < len(s) && s[i+1] == '>' || isFD(s, i):
			i = len(s) - len(strings.TrimLeft(s[i:], digits))
			op := redirection(s[i:])
			if op == "" {
				i++
				continue
			}
			if (op == "<" || op == ">") && i+1 < len(s) && s[i+1] == '(' {
				// A process substitution: its commands run too.
				inner, next := balanced(s, i+2)
				p.script(inner, dirs[len(dirs)-1])
				cur.words = append(cur.words, word{text: "/dev/fd/63", dyn: true})
				i = next
				continue
			}
			i += len(op)
			switch op {
			case "<<", "<<-":
				heredocNext = true
				pending = append(pending, heredoc{strip: op == "<<-", cmd: -1})
			case "<<<":
				herestringNext = true
			case "<":
				readNext = true
			case ">&", "<&":
				// >&2 duplicates a descriptor; >&file writes file.
				if fd := len(s) - i - len(strings.TrimLeft(s[i:], digits+"-")); fd > 0 {
					i += fd
					continue
				}
				writeNext, readNext = op == ">&", op == "<&"
			default:
				writeNext = true
			}
		case c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			switch {
			case c == '|' && i+1 < len(s) && s[i+1] == '|', c == '&' && i+1 < len(s) && s[i+1] == '&':
				end(false)
				i += 2
			case c == '|':
				end(true)
				i++
				if i < len(s) && s[i] == '&' {
					i++
				}
			case c == '(':
				if len(cur.words) == 0 {
					dirs = append(dirs, dirs[len(dirs)-1])
				}
				end(false)
				i++
			case c == ')':
				end(false)
				if len(dirs) > 1 {
					dirs = dirs[:len(dirs)-1]
				}
				cur.dir = dirs[len(dirs)-1]
				i++
			default:
				end(false)
				i++
			}
		default:
			w, next := p.word(s, i, dirs[len(dirs)-1])
			i = next
			switch {
			case heredocNext:
				heredocNext = false
				pending[len(pending)-1].delim = w.text
				pending[len(pending)-1].cmd = waiting
			case herestringNext:
				herestringNext = false
				cur.input = w.text
			case writeNext:
				writeNext = false
				cur.writes = append(cur.writes, w)
			case readNext:
				readNext = false
			case len(cur.words) == 0 && keyword(w.text) && !w.dyn:
				// if, then, {, ! and the like open what follows.
			case len(cur.words) == 0 && isAssignment(w.text):
				cur.assign = true
				name, value, _ := strings.Cut(w.text, "=")
				cur.vars = append(cur.vars, name)
				p.assign(name, w, value, dirs[len(dirs)-1])
			default:
				cur.words = append(cur.words, w)
				cur.words = append(cur.words, w.more...)
			}
		}
	}
	end(false)
}

// waiting marks a here-document whose command has not ended yet.
const waiting = -2

// keyword reports the reserved words that open or close a command list
// rather than run a program.
func keyword(w string) bool {
	return slices.Contains([]string{"{", "}", "!", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "esac", "in"}, w)
}

// isAssignment reports a NAME=value word.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range []byte(name) {
		if !nameByte(c, i == 0) {
			return false
		}
	}
	return true
}

// nameByte reports a byte a variable's name may hold: a letter, _, or
// past the first byte a digit.
func nameByte(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9'
}

// isFD reports digits at i followed by a redirection: 2>file.
func isFD(s string, i int) bool {
	if i > 0 && !strings.ContainsRune(" \t\n;&|()", rune(s[i-1])) {
		return false
	}
	rest := strings.TrimLeft(s[i:], digits)
	return len(rest) < len(s)-i && rest != "" && (rest[0] == '<' || rest[0] == '>')
}

const digits = "0123456789"

// redirection returns the redirection operator s starts with, "" for
// none.
func redirection(s string) string {
	for _, op := range []string{"&>>", "<<<", "<<-", ">>", ">|", "&>", "<>", "<<", ">&", "<&", ">", "<"} {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return ""
}

// heredocBody reads a here-document's body from s at i: its lines up to
// the one that is its delimiter.
func heredocBody(s string, i int, h heredoc) (body string, next int) {
	start := i
	for i < len(s) {
		line, _, _ := strings.Cut(s[i:], "\n")
		next := min(i+len(line)+1, len(s))
		if h.strip {
			line = strings.TrimLeft(line, "\t")
		}
		if line == h.delim {
			return s[start:i], next
		}
		i = next
	}
	return s[start:], len(s)
}

// balanced returns the text from i to the parenthesis that closes one
// opened before i, and the index past it; quotes and nested parentheses
// are respected.
func balanced(s string, i int) (string, int) {
	depth := 1
	start := i
	var quote byte
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			i++
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return s[start:i], i + 1
			}
		}
	}
	return s[start:], len(s)
}

// word reads one word at i, in dir; it returns the word and the index
// past it.
func (p *parser) word(s string, i int, dir string) (word, int) {
	var w word
	var b, pat strings.Builder // pat: the word with its parts marked
	unknown := false
	start := i
	subs := 0     // substitutions met
	subHint := "" // the last word of the last one
	// The first expansion that stands for several words: where its first
	// word starts and ends in the word, and the others.
	var at, upto int
	var alts []word
	expand := func() {
		x := p.expand(s, i, dir)
		if alts == nil && len(x.alts) > 0 {
			at, upto, alts = b.Len(), b.Len()+len(x.text), x.alts
		}
		b.WriteString(x.text)
		switch {
		case x.dyn && x.claude:
			pat.WriteString(execMark)
			unknown = true
		case x.dyn && x.text == "":
			pat.WriteString(unknownMark)
			unknown = true
		default:
			pat.WriteString(x.text)
		}
		w.dyn = w.dyn || x.dyn
		w.glob = w.glob || x.glob
		w.claude = w.claude || x.claude
		if x.hint != "" {
			subs, subHint = subs+1, x.hint
		}
		i = x.next
	}
loop:
	for i < len(s) {
		c := s[i]
		switch {
		case strings.IndexByte(" \t\r\n;&|()<>", c) >= 0:
			break loop
		case c == '\\':
			if i+1 < len(s) {
				b.WriteByte(s[i+1])
				pat.WriteByte(s[i+1])
			}
			i += 2
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				b.WriteString(s[i+1:])
				pat.WriteString(s[i+1:])
				i = len(s)
				continue
			}
			b.WriteString(s[i+1 : i+1+j])
			pat.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case c == '"':
			i++
			for i < len(s) && s[i] != '"' {
				switch {
				case s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0:
					b.WriteByte(s[i+1])
					pat.WriteByte(s[i+1])
					i += 2
				case s[i] == '$' || s[i] == '`':
					expand()
				default:
					b.WriteByte(s[i])
					pat.WriteByte(s[i])
					i++
				}
			}
			i++
		case c == '$' || c == '`':
			expand()
		case c == '~' && (i == start || s[i-1] == '=' && isAssignment(s[start:i]+"x")):
			// ~ and ~/… are the home folder, ~+ the folder the command
			// runs in; ~user and ~- are not known.
			ends := func(k int) bool { return k == len(s) || s[k] == '/' || strings.IndexByte(" \t\r\n;&|()<>", s[k]) >= 0 }
			if home := p.getenv("HOME"); home != "" && ends(i+1) {
				b.WriteString(home)
				pat.WriteString(home)
			} else if i+1 < len(s) && s[i+1] == '+' && ends(i+2) && dir != "" {
				b.WriteString(dir)
				pat.WriteString(dir)
				i++
			} else {
				b.WriteByte(c)
				pat.WriteByte(c)
				w.dyn = true
			}
			i++
		default:
			switch c {
			case '*', '?', '[':
				w.glob = true
			case '{', ',', '}':
				// Unquoted, for braces to expand (a quoted one is text).
				c = braceMarks[strings.IndexByte("{,}", c)]
			}
			b.WriteByte(c)
			pat.WriteByte(c)
			i++
		}
	}
	w.text = b.String()
	if unknown && len(alts) == 0 {
		w.pat = unmark(pat.String())
	}
	for _, a := range alts {
		x := word{text: w.text[:at] + a.text + w.text[upto:], dyn: a.dyn, glob: a.glob}
		texts, glob := braces(x.text)
		for _, t := range texts {
			w.alts = append(w.alts, word{text: t, dyn: x.dyn, glob: x.glob || glob})
		}
	}
	texts, glob := braces(w.text)
	w.text, w.glob = texts[0], w.glob || glob
	for _, t := range texts[1:] {
		w.more = append(w.more, word{text: t, dyn: w.dyn, glob: w.glob})
	}
	w.alts = append(w.alts, w.more...)
	if subs == 1 && w.text == "" {
		// $(which claude): the program it names.
		w.text = subHint
	}
	return w, i
}

// expansion is what a $ or ` expansion reads: its text where the reader
// knows it, the last word of a command substitution (its hint), whether
// it is dynamic or a pattern, the other words it may stand for (word's
// alts), and the index past it.
type expansion struct {
	text, hint string
	dyn, glob  bool
	claude     bool // it expands CLAUDE_CODE_EXECPATH (word's claude)
	alts       []word
	next       int
}

// expand reads a $ or ` expansion at i. A command substitution's commands
// are read as commands of the line.
func (p *parser) expand(s string, i int, dir string) expansion {
	if s[i] == '`' {
		j := i + 1
		for j < len(s) && s[j] != '`' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		inner := s[i+1 : min(j, len(s))]
		hint, alts := p.substitute(inner, dir)
		return expansion{hint: hint, dyn: true, alts: alts, next: min(j+1, len(s))}
	}
	if i+1 >= len(s) {
		return expansion{text: "$", next: i + 1}
	}
	switch c := s[i+1]; {
	case c == '(':
		inner, next := balanced(s, i+2)
		if strings.HasPrefix(inner, "(") {
			return expansion{dyn: true, next: next} // $((arithmetic))
		}
		hint, alts := p.substitute(inner, dir)
		return expansion{hint: hint, dyn: true, alts: alts, next: next}
	case c == '{':
		inner, next := braced(s, i+2)
		x := p.parameter(inner, dir)
		x.next = next
		return x
	case nameByte(c, true):
		j := i + 1
		for j < len(s) && nameByte(s[j], false) {
			j++
		}
		x := p.variable(s[i+1:j], dir)
		x.next = j
		return x
	case c == '$':
		// The shell's own process: /proc/$$ is /proc/self as the guard
		// reads a path (absIn).
		return expansion{text: "self", dyn: true, next: i + 2}
	case strings.IndexByte("0123456789@*#?!-", c) >= 0:
		return expansion{dyn: true, next: i + 2}
	}
	return expansion{text: "$", next: i + 1}
}

// braced returns the text of a ${…} expansion whose text starts at i, up
// to its closing brace (nested ones and quotes skipped), and the index
// past it.
func braced(s string, i int) (string, int) {
	depth := 1
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '\'':
			if k := strings.IndexByte(s[j+1:], '\''); k >= 0 {
				j += k + 1
			}
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return s[i:j], j + 1
			}
		}
	}
	return s[i:], len(s)
}

// parameter reads a ${…} expansion's text: ${NAME}, and ${NAME:-word},
// ${NAME-word}, ${NAME:=word}, ${NAME=word}, ${NAME:+word}, ${NAME+word},
// which stand for the variable's value or the word (expanded as a word
// is): the value when the reader knows it, the word among its other
// words. Any other operator is dynamic.
func (p *parser) parameter(inner, dir string) expansion {
	n := 0
	for n < len(inner) && nameByte(inner[n], n == 0) {
		n++
	}
	if n == 0 {
		return expansion{dyn: true}
	}
	name, rest := inner[:n], inner[n:]
	if rest == "" {
		return p.variable(name, dir)
	}
	op := strings.TrimPrefix(rest, ":")
	if name == execVar && (op == "" || strings.IndexByte("-=+", op[0]) < 0) {
		// ${CLAUDE_CODE_EXECPATH%.exe}, ${…/x/y}, ${…:0:5}: whatever the
		// operator makes of it, Claude Code's program.
		x := p.variable(name, dir)
		return expansion{text: x.text, dyn: true, claude: true}
	}
	if op == "" || strings.IndexByte("-=+", op[0]) < 0 {
		return expansion{dyn: true}
	}
	alt, _ := p.word(op[1:], 0, dir)
	x := p.variable(name, dir)
	if x.text == "" {
		return expansion{text: alt.text, dyn: alt.dyn, glob: alt.glob, alts: alt.alts}
	}
	x.alts = append(slices.Clone(x.alts), alt)
	return x
}

// substitute reads a command substitution's commands and returns the
// last word of its last one (`which claude` names claude) and what its
// commands may print (produced).
func (p *parser) substitute(inner, dir string) (string, []word) {
	n := len(p.out)
	p.script(inner, dir)
	var alts []word
	for _, c := range p.out[n:] {
		alts = append(alts, produced(c)...)
	}
	if len(p.out) > n {
		ws := p.out[len(p.out)-1].words
		if len(ws) == 2 && ws[0].text == "which" || len(ws) == 3 && ws[0].text == "command" && ws[1].text == "-v" {
			// $(which NAME) is NAME's path on PATH: a write to it is one
			// to the program.
			name := ws[len(ws)-1].text
			if path, err := exec.LookPath(name); err == nil && !strings.ContainsRune(name, '/') && filepath.IsAbs(path) {
				return path, alts
			}
		}
		if len(ws) > 0 {
			return ws[len(ws)-1].text, alts
		}
	}
	return "", alts
}

// variable is the value of a variable the reader knows: the
// environment's it reads, else one the line set (dynamic when neither).
func (p *parser) variable(name, dir string) expansion {
	switch name {
	case "PWD":
		return expansion{text: dir, dyn: dir == ""}
	case "HOME", "CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME", "TMPDIR", "USER", "CLAUDE_CODE_SESSION_ID":
		v := p.getenv(name)
		return expansion{text: v, dyn: v == ""}
	case execVar:
		// Claude Code's program, which it names for the commands it
		// runs: by its name where the hook's environment lacks it.
		if v := p.getenv(name); v != "" {
			return expansion{text: v, claude: true}
		}
		return expansion{text: "claude", dyn: true, claude: true}
	}
	ws, ok := p.vars[name]
	if !ok || len(ws) == 0 {
		return expansion{dyn: true}
	}
	x := expansion{text: ws[0].text, dyn: ws[0].dyn, glob: ws[0].glob, claude: ws[0].claude, alts: ws[0].alts}
	x.alts = append(slices.Clone(x.alts), ws[1:]...)
	return x
}

// execVar is the variable by which Claude Code names its own program to
// the commands it runs.
const execVar = "CLAUDE_CODE_EXECPATH"

// assign sets a variable of the line to value, the text of w past its
// name; a variable whose value programs run as a command (carries) has
// its command read as the line's, in dir.
func (p *parser) assign(name string, w word, value, dir string) {
	p.set(name, []word{{text: value, dyn: w.dyn, glob: w.glob, claude: w.claude, alts: w.alts}})
	if carries(name) {
		p.script(strings.TrimLeft(value, "|"), dir)
	}
}

// set sets a variable of the line.
func (p *parser) set(name string, value []word) {
	if p.vars == nil {
		p.vars = map[string][]word{}
	}
	if len(p.vars) < maxCommands {
		p.vars[name] = value
	}
}

// sets records the variables a command sets: export, declare, local,
// readonly and typeset NAME=value, read NAME (what the pipeline before it
// produced), for NAME in WORDS (its words). It reports a for or a select,
// whose words are the loop's, not a command's.
func (p *parser) sets(c simple) bool {
	if len(c.words) == 0 {
		return false
	}
	args := c.words[1:]
	switch c.words[0].text {
	case "export", "declare", "local", "readonly", "typeset":
		for _, a := range args {
			if name, value, ok := strings.Cut(a.text, "="); ok && isAssignment(a.text) {
				p.assign(name, a, value, c.dir)
			}
		}
	case "read":
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") && isAssignment(a.text+"=") {
				p.set(a.text, c.piped)
			}
		}
	case "for", "select":
		if len(args) >= 2 && args[1].text == "in" && isAssignment(args[0].text+"=") {
			p.set(args[0].text, args[2:])
		}
		return true
	}
	return false
}

// produced is what a command may print, for xargs, read and a command
// substitution to take as words: what find finds (under the folders it
// starts from, unless every -name it filters by spares the names the
// fuse stands on), else the command's words past its program, or its
// folder when it has none (ls).
func produced(c simple) []word {
	if len(c.words) == 0 {
		return nil
	}
	if filepath.Base(c.words[0].text) == "find" {
		if findSpares(c.words) {
			return nil
		}
		return findStarts(c.words)
	}
	if len(c.words) == 1 {
		// ls alone: the names in its folder.
		return []word{{text: "."}}
	}
	return c.words[1:]
}

// cd returns the folder a cd or pushd command moves to.
func (p *parser) cd(c simple) (string, bool) {
	ws := c.words
	if len(ws) > 0 && ws[0].text == "builtin" {
		ws = ws[1:]
	}
	if len(ws) == 0 || ws[0].text != "cd" && ws[0].text != "pushd" {
		return "", false
	}
	args := ws[1:]
	for len(args) > 0 && strings.HasPrefix(args[0].text, "-") && args[0].text != "-" && !args[0].dyn {
		args = args[1:]
	}
	switch {
	case len(args) == 0:
		return p.getenv("HOME"), true
	case args[0].text == "-":
		// Back to where the last cd of the line left ("" when none did:
		// the Bash tool's shell has no OLDPWD of its own to trust).
		return p.oldpwd, true
	case args[0].dyn && !filepath.IsAbs(args[0].text), !filepath.IsAbs(args[0].text) && c.dir == "":
		// An absolute folder is known wherever the cd starts; a relative
		// one only from a known folder.
		return "", true
	}
	return absIn(args[0].text, c.dir), true
}

// absIn is path made absolute against dir, cleaned, with a process's
// folders in /proc read for what they are (procPath).
func absIn(path, dir string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return procPath(path, dir)
}

// procPath reads a path through a process's folders in /proc as the
// kernel does, before .. is cleaned away: /proc/self/cwd/… (also
// /proc/thread-self, /proc/$$) is the folder the command runs in,
// /proc/PID/cwd the process's own when it can be read, and
// /proc/…/root/… the root. A cleaned path otherwise.
func procPath(path, dir string) string {
	rest, ok := strings.CutPrefix(path, "/proc/")
	if !ok {
		return filepath.Clean(path)
	}
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) < 2 {
		return filepath.Clean(path)
	}
	tail := ""
	if len(parts) == 3 {
		tail = parts[2]
	}
	pid := parts[0]
	own := pid == "self" || pid == "thread-self"
	numeric := pid != "" && strings.Trim(pid, digits) == ""
	switch {
	case parts[1] == "root" && (own || numeric):
		return filepath.Join("/", tail)
	case parts[1] == "cwd" && own && dir != "":
		return filepath.Join(dir, tail)
	case parts[1] == "cwd" && numeric:
		if at, err := os.Readlink("/proc/" + pid + "/cwd"); err == nil && filepath.IsAbs(at) {
			return filepath.Join(at, tail)
		}
		if dir != "" {
			return filepath.Join(dir, tail)
		}
	}
	return filepath.Clean(path)
}

// braceMarks stand, in a word being read, for its unquoted { , and }:
// the bytes brace expansion works on.
const braceMarks = "\x01\x02\x03"

// maxBraces bounds the words one word's braces expand to.
const maxBraces = 256

// braces expands the brace groups of a word read with braceMarks, as the
// shell does before it matches paths: a{b,c}d is abd acd, x{1..3} is x1
// x2 x3 (numbers or single letters); a group with neither is text. Past
// maxBraces words, each group stands for any text, as a pattern (glob).
func braces(s string) (texts []string, glob bool) {
	if !strings.ContainsAny(s, braceMarks) {
		return []string{s}, false
	}
	if out, ok := expandBraces(s, nil); ok {
		return out, false
	}
	// Too many: each outermost group becomes *.
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case braceMarks[0]:
			if depth++; depth == 1 {
				b.WriteByte('*')
			}
		case braceMarks[2]:
			if depth > 0 {
				depth--
				continue
			}
			b.WriteByte('}')
		default:
			if depth == 0 {
				b.WriteString(unmark(s[i : i+1]))
			}
		}
	}
	return []string{b.String()}, true
}

// expandBraces appends to out the words s expands to; ok is false past
// maxBraces. Its groups are matched in one pass: the first that expands
// is expanded, and each word it makes read again.
func expandBraces(s string, out []string) ([]string, bool) {
	type group struct {
		open, close int
		commas      []int
	}
	var open []group // the groups not closed yet
	for j := 0; j < len(s); j++ {
		switch s[j] {
		case braceMarks[0]:
			open = append(open, group{open: j, close: -1})
		case braceMarks[1]:
			if len(open) > 0 {
				open[len(open)-1].commas = append(open[len(open)-1].commas, j)
			}
		case braceMarks[2]:
			if len(open) == 0 {
				continue
			}
			g := open[len(open)-1]
			open = open[:len(open)-1]
			var parts []string
			if len(g.commas) > 0 {
				from := g.open + 1
				for _, c := range append(g.commas, j) {
					parts = append(parts, s[from:c])
					from = c + 1
				}
			} else if parts = sequence(s[g.open+1 : j]); parts == nil {
				continue // {x}: text
			}
			for _, p := range parts {
				var ok bool
				if out, ok = expandBraces(s[:g.open]+p+s[j+1:], out); !ok {
					return nil, false
				}
			}
			return out, true
		}
	}
	if len(out) >= maxBraces {
		return nil, false
	}
	return append(out, unmark(s)), true
}

// sequence is what a brace group's body a..b stands for: the numbers or
// the letters from a to b; nil when it is not one or holds more than
// maxBraces.
func sequence(body string) []string {
	a, b, ok := strings.Cut(body, "..")
	if !ok {
		return nil
	}
	if x, errA := strconv.Atoi(a); errA == nil {
		y, errB := strconv.Atoi(b)
		if errB != nil || x < -1e6 || x > 1e6 || y < -1e6 || y > 1e6 || max(x-y, y-x) >= maxBraces {
			return nil
		}
		var out []string
		for step := cmp.Compare(y, x); ; x += step {
			out = append(out, strconv.Itoa(x))
			if x == y {
				return out
			}
		}
	}
	if len(a) != 1 || len(b) != 1 || !nameByte(a[0], true) || !nameByte(b[0], true) {
		return nil
	}
	step := 1
	if a[0] > b[0] {
		step = -1
	}
	var out []string
	for c := int(a[0]); ; c += step {
		out = append(out, string(rune(c)))
		if c == int(b[0]) {
			return out
		}
	}
}

// unmark puts back the braces and commas braceMarks stand for.
func unmark(s string) string {
	return strings.NewReplacer(braceMarks[0:1], "{", braceMarks[1:2], ",", braceMarks[2:3], "}").Replace(s)
}
