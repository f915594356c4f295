package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runPlugin runs the CLI once, headless, against a mock answering from s,
// with our hooks installed the plugin's way: `claude plugin marketplace
// add` on this module's folder, then `claude plugin install
// context-budget@context-budget`, as the README says. The plugin's hooks
// run context-budget from PATH: onPath puts the built binaries there, and
// without it PATH has no context-budget at all. env goes in the user
// settings' env block.
func runPlugin(t *testing.T, s Script, env map[string]string, onPath bool) *Session {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return runPluginFrom(t, root, s, env, onPath)
}

// runPluginFrom is runPlugin with the marketplace added from the folder
// root.
func runPluginFrom(t *testing.T, root string, s Script, env map[string]string, onPath bool) *Session {
	t.Helper()
	needClaude(t)
	m := NewMock(s)
	t.Cleanup(m.Close)
	dir := t.TempDir()
	sess := &Session{Mock: m, Home: filepath.Join(dir, "home"), Project: filepath.Join(dir, "project")}
	for _, d := range []string{filepath.Join(sess.Home, ".claude"), sess.Project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := pathWithout(os.Getenv("PATH"), "context-budget")
	if onPath {
		path = filepath.Dir(hookBin) + string(os.PathListSeparator) + path
	}
	environ := []string{
		"HOME=" + sess.Home,
		"PATH=" + path,
		"TMPDIR=" + dir,
		"IS_SANDBOX=1",
		"ANTHROPIC_BASE_URL=" + m.URL(),
		"ANTHROPIC_API_KEY=sk-ant-e2e-not-a-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
	for _, args := range [][]string{
		{"plugin", "marketplace", "add", root},
		{"plugin", "install", "context-budget@context-budget"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
		cmd := exec.CommandContext(ctx, claudeBin, args...)
		cmd.Dir, cmd.Env = sess.Project, environ
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if len(env) > 0 {
		name := filepath.Join(sess.Home, ".claude", "settings.json")
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var settings map[string]any
		if err := json.Unmarshal(data, &settings); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		settings["env"] = env
		data, _ = json.MarshalIndent(settings, "", "  ")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, claudeBin, "-p", "Run the e2e script.",
		"--permission-mode", "bypassPermissions", "--model", "claude-opus-4-6")
	cmd.Dir, cmd.Env = sess.Project, environ
	runCmd(t, m, sess, cmd)
	return sess
}

// pathWithout is PATH less every folder that holds a program named name.
func pathWithout(path, name string) string {
	var keep []string
	for _, d := range filepath.SplitList(path) {
		if _, err := os.Stat(filepath.Join(d, name)); err == nil {
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// TestPluginNamesItsSkills: installed as a plugin, the notices name the
// skills as the model's skill list shows them, context-budget:relay and
// context-budget:go, and fire as they do from the settings.
func TestPluginNamesItsSkills(t *testing.T) {
	sc := climbScript()
	s := runPlugin(t, sc, fixedLines(), true)
	check(t, s, sc, expect(warnAt(2, 0), pauseAt(4, 0)))
	warn := onlyNotice(t, s, "warning")
	says(t, warn, `as the /context-budget:go skill's "Stopping partway releases the plan" says`, "run /context-budget:relay;")
	pause := onlyNotice(t, s, "pause")
	says(t, pause, "without asking and with no argument, run /context-budget:relay;")
	saysNot(t, pause, " /relay", " /go ")
	// With the program on PATH the SessionStart check is silent.
	if n := requestsSaying(s, "is not on PATH"); n > 0 {
		t.Errorf("%d requests carry the missing-program notice, want none", n)
	}
}

// TestPluginWithoutBinary: the plugin installed but context-budget not on
// PATH: the session is told once, at its start, naming the install
// command; no context-budget notice comes, and the run goes on.
func TestPluginWithoutBinary(t *testing.T) {
	sc := climbScript()
	s := runPlugin(t, sc, fixedLines(), false)
	if s.Err != nil {
		t.Fatalf("the run failed without the program: %v", s.Err)
	}
	const phrase = "the context-budget plugin is enabled, but its program, context-budget, is not on PATH"
	if requestsSaying(s, phrase) == 0 {
		t.Fatalf("no request carries the missing-program notice\n%s", s.Timeline())
	}
	if n := requestsSaying(s, "go install github.com/muthur/context-budget/cmd/...@latest"); n == 0 {
		t.Errorf("the notice does not name the install command")
	}
	if got := len(s.Notices()); got != 0 {
		t.Errorf("%d context-budget notices without the program, want 0", got)
	}
	// Once: the first request carries it, and the text appears once in it.
	reqs := s.Mock.Requests()
	for _, r := range reqs {
		if r.Path == "/v1/messages" {
			if c := bytes.Count(r.Body, []byte(phrase)); c != 1 {
				t.Errorf("the first request carries the notice %d times, want 1", c)
			}
			break
		}
	}
}

// requestsSaying counts the Messages requests whose body holds phrase.
func requestsSaying(s *Session, phrase string) int {
	n := 0
	for _, r := range s.Mock.Requests() {
		if r.Path == "/v1/messages" && bytes.Contains(r.Body, []byte(phrase)) {
			n++
		}
	}
	return n
}

// TestPluginFromClone: the plugin installed from a fresh clone, after what
// make test installs into it (make claude-cli, with an npm that only
// records where it would install, so that no network is used) and with
// the programs a build leaves in bin/, copies only the plugin's folder:
// its hooks, skills and manifest, under 1 MB; the caches the tests need
// live in the user's cache folder, and the build output stays behind.
// Run without the program, no hook reports an error: the session's
// transcript holds no hook error, only the start-of-session message.
func TestPluginFromClone(t *testing.T) {
	needClaude(t)
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	clone, home, fake := filepath.Join(dir, "clone"), filepath.Join(dir, "home"), filepath.Join(dir, "fakebin")
	if out, err := exec.Command("git", "clone", "--quiet", root, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	os.MkdirAll(fake, 0o755)
	npm := "#!/bin/sh\necho \"$@\" > " + filepath.Join(dir, "npm-args") + "\n"
	if err := os.WriteFile(filepath.Join(fake, "npm"), []byte(npm), 0o755); err != nil {
		t.Fatal(err)
	}
	mk := exec.Command("make", "-C", clone, "claude-cli")
	mk.Env = []string{"HOME=" + home, "PATH=" + fake + string(os.PathListSeparator) + os.Getenv("PATH")}
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make claude-cli: %v\n%s", err, out)
	}
	args, err := os.ReadFile(filepath.Join(dir, "npm-args"))
	if err != nil {
		t.Fatalf("make claude-cli did not run npm: %v", err)
	}
	if want := filepath.Join(home, ".cache", "context-budget", "claude-code"); !strings.Contains(string(args), "--prefix "+want) {
		t.Errorf("npm installs with %q, want --prefix %s", args, want)
	}
	if _, err := os.Stat(filepath.Join(clone, ".cache")); err == nil {
		t.Error("make claude-cli wrote .cache into the clone")
	}
	// What make build leaves: the programs, ignored by git.
	os.MkdirAll(filepath.Join(clone, "bin"), 0o755)
	if err := os.WriteFile(filepath.Join(clone, "bin", "context-budget-cli"), make([]byte, 8<<20), 0o755); err != nil {
		t.Fatal(err)
	}

	s := runPluginFrom(t, clone, climbScript(), fixedLines(), false)
	size := int64(0)
	filepath.WalkDir(filepath.Join(s.Home, ".claude", "plugins"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				size += fi.Size()
			}
			if d.Name() == "context-budget-cli" || d.Name() == "go.mod" {
				t.Errorf("the installed plugin holds %s: more of the clone than the plugin", p)
			}
		}
		return nil
	})
	t.Logf("the installed plugin takes %.0f KB", float64(size)/1e3)
	if size == 0 || size > 1<<20 {
		t.Errorf("the installed plugin takes %d bytes, want under 1 MB", size)
	}
	files, _ := filepath.Glob(filepath.Join(s.Home, ".claude", "projects", "*", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("the session wrote no transcript")
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if n := bytes.Count(data, []byte(`"hook_non_blocking_error"`)); n > 0 {
			t.Errorf("%d hook errors in the session's transcript", n)
		}
		if bytes.Contains(data, []byte(`"hookErrors":["`)) {
			t.Error("a Stop hook failed")
		}
	}
	if requestsSaying(s, "is not on PATH") == 0 {
		t.Error("the start-of-session message is missing")
	}
}
