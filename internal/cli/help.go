package cli

import (
	"fmt"
	"io"
	"strings"
)

// topics are the manual's sections that are not a command's own, by the
// name `help TOPIC` takes.
var topics = []struct{ name, section string }{
	{"pricing", "The lines"},
	{"relay", "Manual relay and the operator"},
	{"skills", "Skills"},
	{"plugin", "Plugin"},
	{"tuning", "Tuning"},
}

// runHelp is `context-budget help [TOPIC]`: a short overview, one section
// of the manual, or (help manual) all of it.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		overview(stdout)
		return 0
	}
	if len(args) > 1 {
		return usageError(stderr, "", fmt.Errorf("help takes one topic, got %d", len(args)))
	}
	name := strings.ToLower(args[0])
	if name == "manual" || name == "all" {
		io.WriteString(stdout, manual())
		return 0
	}
	heading := ""
	if c, ok := lookup(name); ok {
		heading = c.section
	}
	for _, t := range topics {
		if t.name == name {
			heading = t.section
		}
	}
	text := section(manual(), heading)
	if text == "" {
		return usageError(stderr, "", fmt.Errorf("no help topic %q", args[0]))
	}
	io.WriteString(stdout, text)
	return 0
}

// overview is what `context-budget help` prints: what the program does,
// the commands and the topics, and where the whole manual is.
func overview(w io.Writer) {
	intro, _, _ := strings.Cut(manual(), "\n\n")
	fmt.Fprintf(w, "%s\n\nusage: context-budget <command> [arguments]\n\ncommands:\n", intro)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	names := []string{}
	for _, c := range commands {
		if c.section != "" {
			names = append(names, c.name)
		}
	}
	for _, t := range topics {
		names = append(names, t.name)
	}
	fmt.Fprintf(w, "\nEach command takes --help. More in the manual, by topic:\n  context-budget help TOPIC   one of %s\n  context-budget help manual  the whole manual\n",
		strings.Join(names, ", "))
}

// manual returns the package comment of doc.go as plain text.
func manual() string {
	s := docSource
	start := strings.Index(s, "/*\n")
	end := strings.Index(s, "*/")
	if start < 0 || end < start {
		return ""
	}
	return strings.TrimLeft(s[start+3:end], "\n")
}

// section returns the manual's section under "# heading", up to the next
// heading, or "" when there is none.
func section(m, heading string) string {
	if heading == "" {
		return ""
	}
	start := strings.Index(m, "\n# "+heading+"\n")
	if start < 0 {
		return ""
	}
	body := m[start+1:]
	if end := strings.Index(body[2:], "\n# "); end >= 0 {
		body = body[:end+3]
	}
	return body
}
