package fuse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
)

// maxCallKey bounds the input a calls file keeps as it came.
const maxCallKey = 4 << 10

// callKey is what the calls file keeps of a call: its tool and its input
// as they came ("=" …), or when the two are larger than maxCallKey (a
// Write's content) their Signature ("#" …), so that the file always fits
// LoadCalls' read.
func callKey(tool string, input json.RawMessage) string {
	raw := bytes.TrimSpace(input)
	if len(tool)+len(raw) > maxCallKey {
		return "#" + Signature(tool, raw)
	}
	return "=" + tool + "\x00" + string(raw)
}

// sameCall reports whether two call keys name the same call: the same
// bytes, or two kept inputs of one tool with the same canonical
// Signature (keys in another order, other spacing).
func sameCall(a, b string) bool {
	if a == b {
		return true
	}
	if !strings.HasPrefix(a, "=") || !strings.HasPrefix(b, "=") {
		return false
	}
	ta, ia, okA := strings.Cut(a[1:], "\x00")
	tb, ib, okB := strings.Cut(b[1:], "\x00")
	return okA && okB && ta == tb && Signature(ta, json.RawMessage(ia)) == Signature(tb, json.RawMessage(ib))
}

// callsName is the calls file of a session, or of one of its subagents:
// a subagent's calls are a run of their own.
func callsName(dir, session, agent string) string {
	if agent != "" {
		return filepath.Join(dir, session+"-"+agent+state.CallsSuffix)
	}
	return filepath.Join(dir, session+state.CallsSuffix)
}

// maxCanonical is the largest input whose keys Signature sorts: a larger
// one (a Write's content) is hashed as it came, since sorting it would
// cost more than the whole hook and a model repeating it repeats its
// bytes.
const maxCanonical = 16 << 10

// Signature is a tool call's identity: its name and its input with keys
// sorted and spacing dropped, hashed.
func Signature(tool string, input json.RawMessage) string {
	h := fnv.New64a()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	var v any
	if len(input) <= maxCanonical && json.Unmarshal(input, &v) == nil {
		canon, _ := json.Marshal(v)
		h.Write(canon)
	} else {
		h.Write(bytes.TrimSpace(input))
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// Describe names a call for a person: the tool and its command, path,
// pattern or address, cut short.
func Describe(tool string, input json.RawMessage) string {
	var in map[string]any
	_ = json.Unmarshal(input, &in)
	for _, k := range []string{"command", "file_path", "notebook_path", "pattern", "url", "query", "prompt", "description"} {
		if s, ok := in[k].(string); ok && s != "" {
			if len(s) > 80 {
				s = s[:77] + "..."
			}
			return tool + ": " + s
		}
	}
	return tool
}

// Calls is a session's calls file, which the PostToolUse hook keeps:
// the latest tool call and how many times in a row it ran.
type Calls struct {
	count int
	prev  string // the last call's key (callKey)
}

// LoadCalls reads the calls file of a session (of one of its subagents
// when agent is set); the zero Calls when there is none or it is damaged.
// The file is "<count>\n<key>".
func LoadCalls(root, session, agent string) Calls {
	if root == "" || !state.PlainName(session) || (agent != "" && !state.PlainName(agent)) {
		return Calls{}
	}
	data, err := reading.ReadFile(callsName(state.Dir(root), session, agent), maxCallKey+64)
	if err != nil {
		return Calls{}
	}
	head, rest, ok := strings.Cut(string(data), "\n")
	count, err := strconv.Atoi(head)
	if !ok || err != nil {
		return Calls{}
	}
	return Calls{count: count, prev: rest}
}

// RecordCall counts one finished tool call (the PostToolUse hook) in the
// session's calls file. When the same call has run s.Loop times in a
// row, it records a loop halt in the session's arm file: the next tool
// call is denied and the turn ends there. MUTHUR_CONTEXT_BUDGET_LOOP set
// (s.LoopSet) holds armed or not; unset, the halt holds only while a cap
// is armed. s.Loop 0 is off: the calls are counted, never halted on.
func RecordCall(getenv func(string) string, root, session, agent, tool string, input json.RawMessage, s tuning.Fuse) error {
	if tool == "" || root == "" || !state.PlainName(session) || (agent != "" && !state.PlainName(agent)) {
		return nil
	}
	dir := state.Dir(root)
	name := callsName(dir, session, agent)
	was := LoadCalls(root, session, agent)
	// No lock: parallel calls are different calls, so a lost update, or a
	// write read half done, only restarts a count the next call restarts.
	key, count := callKey(tool, input), 1
	if was.count > 0 && sameCall(was.prev, key) {
		count = was.count + 1
	}
	content := []byte(strconv.Itoa(count) + "\n" + key)
	if err := state.WriteInPlace(name, content); err != nil {
		if err := state.Ensure(dir); err != nil {
			return err
		}
		if err := state.WriteInPlace(name, content); err != nil {
			return err
		}
	}
	if s.Loop <= 0 || count < s.Loop {
		return nil
	}
	fdir := Dir(getenv, root)
	if fdir == "" {
		return nil
	}
	if !s.LoopSet {
		// The default holds only while a cap is armed: a rare run of
		// identical calls pays this one look at the arm file.
		if a, _, err := LoadArm(fdir, session); err == nil && len(capsOf(s, a)) == 0 {
			return nil
		}
	}
	call := Describe(tool, input)
	if agent != "" {
		call += " (in subagent " + agent + ")"
	}
	return ChangeArm(fdir, session, func(a *Arm) error {
		if a.Loop == nil {
			a.Loop = &Loop{Call: call, Count: count}
		}
		return nil
	})
}

// clearCalls forgets the session's runs of calls, when a loop halt is
// released: the next prompt starts counting afresh.
func clearCalls(dir, session string) {
	os.Remove(callsName(dir, session, ""))
	names, _ := filepath.Glob(filepath.Join(dir, session+"-*"+state.CallsSuffix))
	for _, n := range names {
		os.Remove(n)
	}
}
