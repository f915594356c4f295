package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The cold cache (design §14) with the real CLI: a session is run once,
// its transcript is aged past the cache's TTL, and it is resumed with
// `claude -p --resume`, as a user comes back to it.

// coldModel has the 1M window, so that 300k does not compact.
const coldModel = "claude-opus-4-6[1m]"

// coldScript grows a session to 300k over a few tool calls, so that its
// first response is small (a fresh session's estimate starts there) and
// its last is large: a cold re-write costs dollars on Opus 4.6.
func coldScript() Script {
	return Script{Main: []Turn{
		turn(20_000, bash("true")),
		turn(100_000, bash("true")),
		turn(200_000, bash("true")),
		turn(300_000, text("Done for now.")),
	}}
}

// coldSession runs the first part and returns it with the session id.
// age moves every timestamp of the transcript that far into the past.
func coldSession(t *testing.T, env map[string]string, age time.Duration) (*Session, string) {
	t.Helper()
	s := runClaude(t, coldScript(), Options{Env: env, Model: coldModel})
	if s.Err != nil {
		t.Fatalf("first run failed: %v", s.Err)
	}
	files, _ := filepath.Glob(filepath.Join(s.Home, ".claude", "projects", "*", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("transcripts: %v, want one", files)
	}
	if age > 0 {
		ageTranscript(t, files[0], age)
	}
	return s, strings.TrimSuffix(filepath.Base(files[0]), ".jsonl")
}

var stampRE = regexp.MustCompile(`"timestamp":"([^"]+)"`)

// ageTranscript shifts every record's timestamp back by d: the session
// then last answered d ago.
func ageTranscript(t *testing.T, name string, d time.Duration) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	data = stampRE.ReplaceAllFunc(data, func(m []byte) []byte {
		v := stampRE.FindSubmatch(m)[1]
		at, err := time.Parse(time.RFC3339Nano, string(v))
		if err != nil {
			return m
		}
		return []byte(`"timestamp":"` + at.Add(-d).UTC().Format("2006-01-02T15:04:05.000Z") + `"`)
	})
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// resumeRun is one `claude -p PROMPT --resume ID [extra…]` in s's home
// and project, against its mock; it returns the CLI's output.
func resumeRun(t *testing.T, s *Session, id, prompt string, extra ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	args := append([]string{"-p", prompt, "--resume", id,
		"--permission-mode", "bypassPermissions", "--model", coldModel}, extra...)
	cmd := exec.CommandContext(ctx, claudeBin, args...)
	cmd.Dir = s.Project
	cmd.Env = []string{
		"HOME=" + s.Home,
		"PATH=" + os.Getenv("PATH"),
		"TMPDIR=" + filepath.Dir(s.Home),
		"IS_SANDBOX=1",
		"ANTHROPIC_BASE_URL=" + s.Mock.URL(),
		"ANTHROPIC_API_KEY=sk-ant-e2e-not-a-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	t.Logf("claude -p %q --resume: err=%v\nstdout: %s\nstderr: %s", prompt, err, o.String(), e.String())
	return o.String(), e.String(), err
}

// commitAll makes dir a git repository on branch with everything in it
// committed: the work a fresh session could pick up.
func commitAll(t *testing.T, dir, branch string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", "-b", branch},
		{"add", "-A"},
		{"-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "commit", "-q", "--allow-empty", "-m", "work"},
	} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// mainRequests counts the session's own Messages requests so far.
func mainRequests(s *Session) int { return s.Count(KindMain) }

// lastMainBody is the body of the latest main request.
func lastMainBody(s *Session) string {
	reqs := s.Mock.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Kind == KindMain {
			return string(reqs[i].Body)
		}
	}
	return ""
}

// TestColdPromptStopped: resumed 20 minutes after its last response, the
// session's prompt is stopped with the figures and no request reaches
// the mock; the same prompt in a second resumed run passes.
func TestColdPromptStopped(t *testing.T) {
	s, id := coldSession(t, nil, 20*time.Minute)
	commitAll(t, s.Project, "feat")
	before := mainRequests(s)
	const prompt = "Carry on with the plan."
	out, errOut, _ := resumeRun(t, s, id, prompt)
	if n := mainRequests(s); n != before {
		t.Fatalf("the stopped prompt made %d requests, want none", n-before)
	}
	said := out + errOut
	says(t, said, "idle for 20m", "5-minute prompt cache", "~300k tokens", "before any work", "send the same prompt again",
		"/clear, then /relay take feat")
	// The resumed SessionStart keeps what the CLI said about the cache:
	// it counts the same 20 minutes from the transcript.
	kept, err := os.ReadFile(filepath.Join(s.Project, "tmp", "context-budget", id+".resume"))
	if err != nil {
		t.Errorf("the resumed SessionStart kept nothing: %v", err)
	}
	t.Logf("kept at the start: %s", kept)
	says(t, string(kept), `"likely_expired":true`)
	out, _, err = resumeRun(t, s, id, prompt)
	if err != nil {
		t.Fatalf("second resumed run: %v", err)
	}
	if n := mainRequests(s); n != before+1 {
		t.Fatalf("the prompt sent again made %d requests, want 1", n-before)
	}
	if !strings.Contains(lastMainBody(s), prompt) {
		t.Error("the request that passed does not carry the prompt")
	}
	if strings.Contains(out, "idle for") {
		t.Errorf("the second run was stopped again: %s", out)
	}
}

// TestColdPromptWarn: under =warn the prompt passes at once, with the
// figures in the model's context.
func TestColdPromptWarn(t *testing.T) {
	s, id := coldSession(t, map[string]string{"MUTHUR_CONTEXT_BUDGET_COLD": "warn"}, 20*time.Minute)
	before := mainRequests(s)
	if _, _, err := resumeRun(t, s, id, "Carry on."); err != nil {
		t.Fatalf("resumed run: %v", err)
	}
	if n := mainRequests(s); n != before+1 {
		t.Fatalf("made %d requests, want 1", n-before)
	}
	body := lastMainBody(s)
	says(t, body, "idle for 20m", "re-writes its ~300k tokens", "MUTHUR_CONTEXT_BUDGET_COLD=warn")
}

// TestWarmPromptPasses: resumed within the TTL, the prompt passes
// untouched.
func TestWarmPromptPasses(t *testing.T) {
	s, id := coldSession(t, nil, 0)
	before := mainRequests(s)
	if _, _, err := resumeRun(t, s, id, "Carry on."); err != nil {
		t.Fatalf("resumed run: %v", err)
	}
	if n := mainRequests(s); n != before+1 {
		t.Fatalf("made %d requests, want 1", n-before)
	}
	saysNot(t, lastMainBody(s), "Context budget: this session has been idle")
}

// TestColdForkStopped: a session forked (--fork-session) from a cold one
// carries its context under a new id, and pays the same re-write: its
// first prompt is stopped too.
func TestColdForkStopped(t *testing.T) {
	s, id := coldSession(t, nil, 20*time.Minute)
	before := mainRequests(s)
	out, errOut, _ := resumeRun(t, s, id, "Carry on in a fork.", "--fork-session")
	if n := mainRequests(s); n != before {
		t.Fatalf("the forked session's prompt made %d requests, want none", n-before)
	}
	says(t, out+errOut, "idle for 20m", "~300k tokens")
}
