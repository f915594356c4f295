package cli

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/muthur/context-budget/tools/sharedtest"
)

// example is one command of a README ```console block and the output the
// README shows for it.
type example struct {
	line    int // the command's line in the README
	command string
	want    string
}

// consoleExamples parses the README's ```console blocks: a line "$ cmd"
// is a command, the lines after it up to the next command or the block's
// end its output.
func consoleExamples(readme string) []example {
	var out []example
	in := false
	sc := bufio.NewScanner(strings.NewReader(readme))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```console"):
			in = true
		case in && strings.HasPrefix(line, "```"):
			in = false
		case in && strings.HasPrefix(line, "$ "):
			out = append(out, example{line: n, command: strings.TrimPrefix(line, "$ ")})
		case in && len(out) > 0:
			out[len(out)-1].want += line + "\n"
		}
	}
	return out
}

// updateReadme rewrites the README's examples with what they print:
// go test ./internal/cli -run TestReadmeExamples -update-readme.
var updateReadme = flag.Bool("update-readme", false, "rewrite the README's console examples with what they print")

// idleWords are the words of a duration since the sessions' last
// response, which the clock moves: the README shows them as they read on
// the day it was written.
var idleWords = regexp.MustCompile(`idle [0-9dhms.]+`)

// TestReadmeExamples runs every command the README shows in a ```console
// block, with the programs as make install builds them, in a home whose
// Claude Code history holds the real sessions beside the repository, and
// holds the README to what they print: its examples are real output.
func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the programs")
	}
	shared := sharedtest.DirOrSkip(t)
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	examples := consoleExamples(string(readme))
	if len(examples) == 0 {
		t.Fatal("the README shows no ```console example")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./cmd/...")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The user "you" works in ~/shop; Claude Code keeps that project's
	// sessions in ~/.claude/projects/-home-you-shop.
	home := filepath.Join(t.TempDir(), "home", "you")
	project := filepath.Join(home, "shop")
	history := filepath.Join(home, ".claude", "projects", "-home-you-shop")
	for _, d := range []string{project, history} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("cp", "-r", shared+"/.", history).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	// The sessions ran in ~/shop: their records name it as their cwd,
	// and every path under the folders they really ran in lies under it.
	cwd := regexp.MustCompile(`"cwd":"([^"]*)"`)
	names, _ := filepath.Glob(filepath.Join(history, "*.jsonl"))
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cwd.FindAllSubmatch(data, -1) {
			if len(m[1]) > 1 {
				data = bytes.ReplaceAll(data, append([]byte(`"`), m[1]...), []byte(`"`+project))
			}
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var outputs []string
	for _, e := range examples {
		args := strings.Fields(e.command)
		for i, a := range args {
			// The shell's expansion of ~.
			if rest, ok := strings.CutPrefix(a, "~/"); ok {
				args[i] = filepath.Join(home, rest)
			}
		}
		if args[0] != "context-budget" {
			t.Errorf("README line %d: %q is not a context-budget command", e.line, e.command)
			continue
		}
		cmd := exec.Command(filepath.Join(bin, args[0]), args[1:]...)
		cmd.Dir = project
		cmd.Env = []string{"HOME=" + home, "PATH=" + bin + ":/usr/bin:/bin", "TZ=UTC"}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.Run()
		printed := strings.ReplaceAll(out.String(), home, "~")
		outputs = append(outputs, printed)
		got := idleWords.ReplaceAllString(printed, "idle …")
		want := idleWords.ReplaceAllString(e.want, "idle …")
		if got != want && !*updateReadme {
			t.Errorf("README line %d: $ %s\nprints:\n%s\nthe README shows:\n%s", e.line, e.command, got, e.want)
		}
	}
	if *updateReadme {
		if err := os.WriteFile(filepath.Join(root, "README.md"), []byte(withOutputs(string(readme), outputs)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// withOutputs is readme with each ```console example's output replaced by
// outputs, in order.
func withOutputs(readme string, outputs []string) string {
	var b strings.Builder
	in, skipping, k := false, false, 0
	for _, line := range strings.SplitAfter(readme, "\n") {
		switch {
		case strings.HasPrefix(line, "```console"):
			in = true
		case in && strings.HasPrefix(line, "```"):
			in, skipping = false, false
		case in && strings.HasPrefix(line, "$ "):
			b.WriteString(line)
			if k < len(outputs) {
				b.WriteString(outputs[k])
			}
			k++
			skipping = true
			continue
		case skipping:
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}
