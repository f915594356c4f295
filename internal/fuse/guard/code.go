package guard

// Code handed to an interpreter, and text piped or fed into a shell,
// read as text.

import (
	"path/filepath"
	"slices"
	"strings"
)

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
