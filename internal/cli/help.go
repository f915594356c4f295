package cli

import (
	"embed"
	"fmt"
	"io"
	"strings"
)

// The manual: one file per topic under help/, the same text `help TOPIC`
// prints and the README points at.
//
//go:embed help/*.md
var helpFiles embed.FS

// topics are the manual's files in the order `help manual` prints them;
// a command's topic is one of them (command.topic).
var topics = []string{"hook", "lines", "forecast", "statusline", "relay", "skills", "install", "plugin",
	"doctor", "ledger", "replay", "cold", "budget", "security", "run", "telemetry", "tuning"}

// topic returns the manual's text on name, "" when there is none.
func topic(name string) string {
	data, err := helpFiles.ReadFile("help/" + name + ".md")
	if err != nil {
		return ""
	}
	return string(data)
}

// runHelp is `context-budget help [TOPIC]`: a short overview, one topic
// of the manual (a command's name gives its topic), or (help manual) all
// of it.
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
		io.WriteString(stdout, topic("intro"))
		for _, t := range topics {
			io.WriteString(stdout, "\n"+topic(t))
		}
		return 0
	}
	if c, ok := lookup(name); ok {
		name = c.topic
	}
	text := topic(name)
	if text == "" || name == "intro" {
		return usageError(stderr, "", fmt.Errorf("no help topic %q", args[0]))
	}
	io.WriteString(stdout, text)
	return 0
}

// overview is what `context-budget help` prints: what the program does,
// the commands and the topics, and where the whole manual is.
func overview(w io.Writer) {
	intro := strings.TrimPrefix(topic("intro"), "# context-budget\n\n")
	fmt.Fprintf(w, "%s\nusage: context-budget <command> [arguments]\n\ncommands:\n", intro)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nEach command takes --help. More in the manual, by topic:\n  context-budget help TOPIC   one of %s\n  context-budget help manual  the whole manual\n",
		strings.Join(topics, ", "))
}
