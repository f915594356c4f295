package skills_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/chain"
	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/operator"
)

// frontmatter returns the YAML block at the top of a SKILL.md as
// key: value pairs (the skills use plain one-line values only).
func frontmatter(t *testing.T, text string) map[string]string {
	t.Helper()
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		t.Fatalf("no opening --- on the first line")
	}
	block, _, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		t.Fatalf("no closing ---")
	}
	kv := map[string]string{}
	for _, line := range strings.Split(block, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(line, " ") || strings.Contains(line, "\t") {
			t.Fatalf("frontmatter line %q is not a plain key: value", line)
		}
		kv[k] = strings.TrimSpace(v)
	}
	return kv
}

func read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(name, "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestFrontmatter checks what Claude Code reads: a name that matches the
// folder (lowercase letters, digits, hyphens, at most 64) and a
// description of at most 1,024 characters.
func TestFrontmatter(t *testing.T) {
	name := regexp.MustCompile(`^[a-z0-9-]{1,64}$`)
	for _, skill := range []string{"relay", "go"} {
		fm := frontmatter(t, read(t, skill))
		if fm["name"] != skill || !name.MatchString(fm["name"]) {
			t.Errorf("%s: name %q", skill, fm["name"])
		}
		if d := fm["description"]; d == "" || len(d) > 1024 {
			t.Errorf("%s: description of %d characters", skill, len(d))
		}
		for k := range fm {
			switch k {
			case "name", "description", "argument-hint":
			default:
				t.Errorf("%s: unexpected frontmatter key %q", skill, k)
			}
		}
	}
}

// TestNoticesPointAtTheSkills checks that what the notices cite exists:
// the /relay and /go skills and the go skill's section on stopping.
func TestNoticesPointAtTheSkills(t *testing.T) {
	goSkill := read(t, "go")
	ls := lines.Lines{Warn: lines.Line{Tokens: 300_000, SetBy: lines.Cap}, Pause: lines.Line{Tokens: 400_000, SetBy: lines.Cap}}
	cited := regexp.MustCompile(`/go skill's "([^"]+)"`)
	for _, level := range []climb.Level{climb.Warn, climb.Pause} {
		text := notice.Text(notice.Facts{Level: level, Reading: 410_000, Lines: ls})
		m := cited.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("%v notice cites no section of the /go skill:\n%s", level, text)
		}
		if !strings.Contains(goSkill, "\n## "+m[1]+"\n") {
			t.Errorf("the go skill has no section titled %q", m[1])
		}
		if !strings.Contains(text, "/relay") {
			t.Errorf("%v notice does not name /relay", level)
		}
	}
}

// TestRelayRecordsTheOperatorsChoice checks the relay skill names the file
// the hook reads, and the two values it writes.
func TestRelayRecordsTheOperatorsChoice(t *testing.T) {
	relay := read(t, "relay")
	file := filepath.ToSlash(operator.File("", "<login>"))
	for _, want := range []string{"`" + file + "`", "`true`", "`false`", "/relay take <branch>", "own words", "quotes the operator exactly"} {
		if !strings.Contains(relay, want) {
			t.Errorf("the relay skill does not say %q", want)
		}
	}
}

// TestRelayLeavesTheSuccessorToTheRunner checks that the hand-over tells
// a session run by context-budget run, by the variable the runner sets,
// to start no successor of its own.
func TestRelayLeavesTheSuccessorToTheRunner(t *testing.T) {
	relay := read(t, "relay")
	for _, want := range []string{"`printenv " + chain.EnvChain + "`", "`context-budget run`", "do not start one"} {
		if !strings.Contains(relay, want) {
			t.Errorf("the relay skill does not say %q", want)
		}
	}
}
