package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/muthur/context-budget/internal/compactions"
	"github.com/muthur/context-budget/internal/state"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/muthur/context-budget/internal/hook"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/transcript"
)

// A drive plays a transcript to the real hook program the way Claude Code
// would have: the transcript is written record by record into a fresh
// project, and after each response that made a tool call (its last record
// written, its tool results not yet) the hook program runs, as a child
// process, with a PostToolUse payload naming that call's tool_use_id. What
// the hook prints is the notice; the project's state folder carries its
// state and line cache from call to call, as in a real session.

// driveCut is one response of a transcript: where its last record ends,
// its reading and the tool call the hook would be run for ("" for a
// response that made none).
type driveCut struct {
	end       int
	reading   int64
	toolUseID string
}

// driveCuts splits a transcript into its responses as replay counts them
// (one per message.id, main chain only, a boundary closing the current
// one) and lists its boundaries.
func driveCuts(data []byte) ([]driveCut, []replay.Boundary) {
	var cuts []driveCut
	var bounds []replay.Boundary
	lastID, open := "", false
	off := 0
	for off < len(data) {
		n := bytes.IndexByte(data[off:], '\n')
		end := len(data)
		if n >= 0 {
			end = off + n + 1
		}
		line := data[off:end]
		start := off
		off = end
		take := func(r *transcript.Record, end int) {
			switch {
			case r.IsResponse():
				id := toolUseOf(r.Message.Content)
				if open && r.Message.ID != "" && r.Message.ID == lastID {
					c := &cuts[len(cuts)-1]
					c.end, c.reading = end, r.Message.Usage.Context()
					if id != "" {
						c.toolUseID = id
					}
					return
				}
				lastID, open = r.Message.ID, true
				cuts = append(cuts, driveCut{end: end, reading: r.Message.Usage.Context(), toolUseID: id})
			case r.IsBoundary():
				open = false
				b := replay.Boundary{Kind: "compact", AfterResponse: len(cuts) - 1}
				m := r.CompactMetadata
				if r.Subtype == "microcompact_boundary" {
					b.Kind, m = "microcompact", r.MicrocompactMetadata
				}
				if m != nil {
					b.Trigger, b.PreTokens = m.Trigger, m.PreTokens
				}
				bounds = append(bounds, b)
			}
		}
		if len(line) > reading.MaxLine {
			continue
		}
		if json.Valid(bytes.TrimRight(line, "\r\n")) {
			transcript.Decode(line, func(r *transcript.Record) { take(r, end) })
			continue
		}
		// Damaged (two records spliced on one line): each record ends
		// where its bytes end, so the hook can run between them.
		dec := json.NewDecoder(bytes.NewReader(line))
		for {
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				break
			}
			at := start + int(dec.InputOffset())
			transcript.Decode(raw, func(r *transcript.Record) { take(r, at) })
		}
	}
	return cuts, bounds
}

// toolUseOf returns the id of the last tool_use block in a content array.
func toolUseOf(content json.RawMessage) string {
	if !bytes.Contains(content, []byte(`"tool_use"`)) {
		return ""
	}
	var blocks []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return ""
	}
	id := ""
	for _, b := range blocks {
		if b.Type == "tool_use" && b.ID != "" {
			id = b.ID
		}
	}
	return id
}

// driven is what a drive saw: the hook's notices, the transcript's
// boundaries and how many times the hook ran.
type driven struct {
	Notices    []replay.Notice
	Boundaries []replay.Boundary
	Calls      int
	// Texts are the notices' words, in order.
	Texts []string
}

// hookRunner runs the hook once: the payload on its stdin, what it prints
// returned.
type hookRunner func(payload []byte, environ []string) ([]byte, error)

// execHook runs the real program, a child process, with deadlines long
// enough that a loaded machine cannot change what it decides.
func execHook(payload []byte, environ []string) ([]byte, error) {
	cmd := exec.Command(os.Args[0], "hook")
	cmd.Env = append(environ[:len(environ):len(environ)], testOnlyLongDeadlines+"=1")
	cmd.Stdin = bytes.NewReader(payload)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	return out.Bytes(), err
}

// inProcessHook runs the hook's code in this process, with environ as its
// environment: the same decision, without a process start, for the fits
// that try many settings.
func inProcessHook(payload []byte, environ []string) ([]byte, error) {
	env := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	p, err := reading.ReadPayload(bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	return hook.TestOnlyNotice(p, func(k string) string { return env[k] }, inProcess{})
}

// driveHookWith plays the transcript at path to the hook with run (the
// hook program, or in process) and env (the variables Claude Code would
// pass from its settings) added to a clean environment, in a project of
// its own under tmp.
func driveHookWith(run hookRunner, path, tmp string, env map[string]string) (driven, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return driven{}, err
	}
	project := filepath.Join(tmp, "project")
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return driven{}, err
	}
	if err := os.MkdirAll(project, 0o755); err != nil {
		return driven{}, err
	}
	session := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	live := filepath.Join(project, session+".jsonl")
	f, err := os.Create(live)
	if err != nil {
		return driven{}, err
	}
	defer f.Close()
	// The subagents' files, whole, as replay reads them beside the
	// transcript (the hook read them as they stood; replay cannot know).
	if sub := filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents"); dirExists(sub) {
		abs, _ := filepath.Abs(sub)
		os.MkdirAll(strings.TrimSuffix(live, ".jsonl"), 0o755)
		if err := os.Symlink(abs, filepath.Join(strings.TrimSuffix(live, ".jsonl"), "subagents")); err != nil {
			return driven{}, err
		}
	}
	if projects := filepath.Join(env["HOME"], ".claude", "projects"); env["HOME"] != "" && dirExists(projects) {
		// The other sessions' compactions, indexed whole as the hook's
		// first recompute leaves them in the project's state (a fold's
		// transcripts are within one recompute's read): built once per
		// home rather than once per session. The hook stamps each file
		// on its first look and reads none of it again.
		name := filepath.Join(state.Dir(project), state.Compactions)
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return driven{}, err
		}
		if err := homeIndex(projects, compactions.Transcripts(projects)).Save(name); err != nil {
			return driven{}, err
		}
	}
	environ := driveEnviron(home, project, env)
	cuts, bounds := driveCuts(data)
	d := driven{Boundaries: bounds, Notices: []replay.Notice{}}
	done := 0
	for k, c := range cuts {
		if c.toolUseID == "" {
			continue
		}
		if _, err := f.Write(data[done:c.end]); err != nil {
			return d, err
		}
		done = c.end
		payload, _ := json.Marshal(map[string]string{"hook_event_name": "PostToolUse", "session_id": session,
			"transcript_path": live, "cwd": project, "tool_name": "Bash", "tool_use_id": c.toolUseID})
		out, err := run(payload, environ)
		if err != nil {
			return d, fmt.Errorf("response %d: %v", k, err)
		}
		d.Calls++
		if len(out) == 0 {
			continue
		}
		var o struct {
			Specific struct {
				Context string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(out, &o); err != nil {
			return d, fmt.Errorf("response %d: %v: %q", k, err, out)
		}
		n := noticeOf(o.Specific.Context)
		n.Reading, n.Response = c.reading, k
		d.Notices = append(d.Notices, n)
		d.Texts = append(d.Texts, o.Specific.Context)
	}
	return d, nil
}

// noticeOf reads a notice's first sentence: its level, the line it names
// (in thousands, as the notice rounds it) and what set that line.
func noticeOf(text string) replay.Notice {
	first, _, _ := strings.Cut(text, "\n")
	n := replay.Notice{Level: "pause"}
	if strings.Contains(first, "warning line") {
		n.Level = "warn"
	}
	if _, rest, ok := strings.Cut(first, "past the "); ok {
		if k, _, ok := strings.Cut(rest, "k "); ok {
			v, _ := strconv.ParseInt(k, 10, 64)
			n.Line = v * 1000
		}
	}
	switch {
	case strings.Contains(first, "line (priced"):
		n.SetBy = lines.Priced
	case strings.Contains(first, "line (set in the environment"):
		n.SetBy = lines.Env
	case strings.Contains(first, "line (set by"):
		n.SetBy = lines.Window
	default:
		n.SetBy = lines.Cap
	}
	return n
}

// driveEnviron is the hook's environment: this process's, without any
// tuning or Claude Code variable of the developer's shell, with a fresh
// HOME, the project and env.
func driveEnviron(home, project string, env map[string]string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "MUTHUR_") || strings.HasPrefix(k, "CLAUDE_") || k == "HOME" || k == "XDG_CONFIG_HOME" {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, testOnlyRunMain+"=1", "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"CLAUDE_PROJECT_DIR="+project)
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// driveAll drives every transcript, a few at a time, each in a project
// of its own.
func driveAll(t testing.TB, paths []string, env map[string]string) []driven {
	return driveAllWith(t, execHook, paths, env)
}

// driveAllWith is driveAll with the given runner.
func driveAllWith(t testing.TB, run hookRunner, paths []string, env map[string]string) []driven {
	t.Helper()
	return driveEach(t, run, paths, func(int) map[string]string { return env })
}

// driveEach is driveAllWith with each transcript's own env.
func driveEach(t testing.TB, run hookRunner, paths []string, envOf func(i int) map[string]string) []driven {
	t.Helper()
	out := make([]driven, len(paths))
	errs := make([]error, len(paths))
	tmp := t.TempDir()
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				out[i], errs[i] = driveHookWith(run, paths[i], filepath.Join(tmp, fmt.Sprint(i)), envOf(i))
			}
		})
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(paths[i]), err)
		}
	}
	return out
}

func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// noticeVerdict is a notice's verdict as its words give it (design
// §4.2): what the agent was told (relay, or the alternative it was told
// to go on with), the alternative the figure is against, and the figure.
type noticeVerdict struct {
	Choice, Against string
	NetUSD          float64
	// Priced says the notice carried a figure; Relays that it told the
	// agent to relay (or offer /relay).
	Priced, Relays bool
}

// The verdict's sentence, each way it is said.
var (
	savesRE  = regexp.MustCompile(`Relaying now saves about \$([0-9.]+) over the next 100k tokens against (carrying on|letting Claude Code compact)`)
	notYetRE = regexp.MustCompile(`Relaying does not pay yet: over the next 100k tokens it costs about \$([0-9.]+) more than carrying on`)
	costsRE  = regexp.MustCompile(`Over the next 100k tokens, relaying now costs about \$([0-9.]+) more than letting Claude Code compact`)
)

// verdictOf reads a notice's verdict from its words.
func verdictOf(text string) noticeVerdict {
	v := noticeVerdict{Relays: strings.Contains(text, "Ending: ")}
	amount := func(s string) float64 { f, _ := strconv.ParseFloat(s, 64); return f }
	if m := savesRE.FindStringSubmatch(text); m != nil {
		v.Priced, v.NetUSD, v.Against = true, amount(m[1]), lines.ChoiceCarryOn
		if m[2] != "carrying on" {
			v.Against = lines.ChoiceCompact
		}
	} else if m := notYetRE.FindStringSubmatch(text); m != nil {
		v.Priced, v.NetUSD, v.Against = true, -amount(m[1]), lines.ChoiceCarryOn
	} else if m := costsRE.FindStringSubmatch(text); m != nil {
		v.Priced, v.NetUSD, v.Against = true, -amount(m[1]), lines.ChoiceCompact
	}
	switch {
	case v.Relays:
		v.Choice = lines.ChoiceRelay
	case strings.Contains(text, "letting Claude Code compact is the cheaper way on"):
		v.Choice = lines.ChoiceCompact
	case strings.Contains(text, "carrying on is the cheaper way on"):
		v.Choice = lines.ChoiceCarryOn
	}
	return v
}
