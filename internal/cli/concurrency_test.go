package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// assistantLine is one main-chain response whose request carried tokens.
func assistantLine(id string, tokens int64) string {
	return fmt.Sprintf(`{"type":"assistant","isSidechain":false,"message":{"id":%q,"model":"claude-opus-4-6","role":"assistant",`+
		`"content":[{"type":"tool_use","id":"toolu_%s","name":"Bash","input":{}}],`+
		`"usage":{"input_tokens":1,"cache_creation_input_tokens":999,"cache_read_input_tokens":%d,"output_tokens":10}}}`+"\n",
		id, id, tokens-1000)
}

// runHooks starts n hook processes on one session at once and returns
// their standard outputs. All are started before any gets its payload: the
// hook reads stdin to the end first, so closing the pipes releases them
// together.
func runHooks(t *testing.T, n int, payload []byte) []string {
	t.Helper()
	type proc struct {
		cmd         *exec.Cmd
		stdout, err bytes.Buffer
	}
	procs := make([]*proc, n)
	pipes := make([]interface {
		Write([]byte) (int, error)
		Close() error
	}, n)
	for i := range procs {
		p := &proc{cmd: exec.Command(os.Args[0], "hook")}
		// The design's estimator: on this two-response transcript its
		// lines are the caps, which the phrases name; the default rate's
		// fitted pace would price a pause under the warn reading.
		p.cmd.Env = append(os.Environ(), testOnlyRunMain+"=1", "CLAUDE_PROJECT_DIR=", "MUTHUR_CONTEXT_BUDGET_RATE=since-boundary")
		p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.err
		in, err := p.cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[i], pipes[i] = p, in
	}
	for _, in := range pipes {
		in.Write(payload)
	}
	for _, in := range pipes {
		in.Close()
	}
	outs := make([]string, n)
	for i, p := range procs {
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("hook process %d: %v (stderr %q)", i, err, p.err.String())
		}
		if p.err.Len() > 0 {
			t.Errorf("hook process %d wrote to stderr: %q", i, p.err.String())
		}
		outs[i] = p.stdout.String()
	}
	return outs
}

// count reports how many outputs hold a notice, and how many of those say
// phrase.
func count(outs []string, phrase string) (notices, with int) {
	for _, o := range outs {
		if o == "" {
			continue
		}
		notices++
		if strings.Contains(o, phrase) {
			with++
		}
	}
	return notices, with
}

// TestConcurrentHooks starts 20 hook processes together on one session, as
// Claude Code does for parallel tool calls, and expects exactly one notice
// per level per climb among them, from real processes on real files.
func TestConcurrentHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts hundreds of processes")
	}
	const n = 20
	const warnPhrase, pausePhrase = "past the 300k warning line", "past the 400k pause line"
	for round := range 2 {
		dir := t.TempDir()
		transcript := filepath.Join(dir, "t.jsonl")
		write := func(tokens int64) {
			if err := os.WriteFile(transcript, []byte(assistantLine("a", 100_000)+assistantLine("b", tokens)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		payload, _ := json.Marshal(map[string]string{
			"hook_event_name": "PostToolUse", "session_id": fmt.Sprintf("s%d", round),
			"transcript_path": transcript, "cwd": dir,
		})

		write(312_000)
		if notices, warns := count(runHooks(t, n, payload), warnPhrase); notices != 1 || warns != 1 {
			t.Errorf("round %d, past the warn line: %d notices, %d warnings; want exactly one warning", round, notices, warns)
		}
		write(412_000)
		if notices, pauses := count(runHooks(t, n, payload), pausePhrase); notices != 1 || pauses != 1 {
			t.Errorf("round %d, past the pause line: %d notices, %d pauses; want exactly one pause", round, notices, pauses)
		}

		// A fresh climb straight past the pause: one pause, no warning.
		payload, _ = json.Marshal(map[string]string{
			"session_id": fmt.Sprintf("jump%d", round), "transcript_path": transcript, "cwd": dir,
		})
		if notices, pauses := count(runHooks(t, n, payload), pausePhrase); notices != 1 || pauses != 1 {
			t.Errorf("round %d, straight past the pause: %d notices, %d pauses; want exactly one pause", round, notices, pauses)
		}
	}
}
