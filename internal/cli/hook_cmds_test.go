package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdHookJSON checks that the last exec printed exactly one hook output
// object and nothing else:
// {"hookSpecificOutput":{"hookEventName":EVENT,"additionalContext":"…"}}
// followed by one newline. The event defaults to PostToolUse.
func cmdHookJSON(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 {
		ts.Fatalf("usage: hookjson [event]")
	}
	event := "PostToolUse"
	if len(args) == 1 {
		event = args[0]
	}
	out := []byte(ts.ReadFile("stdout"))
	if !bytes.HasSuffix(out, []byte("}\n")) || bytes.Count(out, []byte("\n")) != 1 {
		ts.Fatalf("stdout is not one line of JSON: %q", out)
	}
	var got struct {
		System   *string `json:"systemMessage"`
		Specific struct {
			Event   *string `json:"hookEventName"`
			Context *string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	ts.Check(dec.Decode(&got))
	s := got.Specific
	if s.Event == nil || s.Context == nil {
		ts.Fatalf("hookSpecificOutput lacks hookEventName or additionalContext: %s", out)
	}
	if *s.Event != event {
		ts.Fatalf("hookEventName = %q, want %q", *s.Event, event)
	}
	if *s.Context == "" || len(*s.Context) > 2000 {
		ts.Fatalf("additionalContext has %d characters, want 1 to 2000", len(*s.Context))
	}
	// The exact bytes: these keys in this order, no spaces, nothing else;
	// a warn or pause notice has its one line for the person first.
	system := ""
	if got.System != nil {
		if n := len([]rune(*got.System)); n == 0 || n > 200 {
			ts.Fatalf("systemMessage has %d characters, want 1 to 200", n)
		}
		system = `"systemMessage":` + quote(*got.System) + ","
	}
	want := `{` + system + `"hookSpecificOutput":{"hookEventName":` + quote(event) + `,"additionalContext":` + quote(*s.Context) + "}}\n"
	if string(out) != want {
		ts.Fatalf("stdout is\n%s\nwant exactly\n%s", out, want)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// cmdAppendLater appends the content of SRC to DST after DELAY, in the
// background, the way Claude Code writes a transcript record while the hook
// already runs. With -nonl the final newline of SRC is left out, for a
// half-written line (a txtar file always ends with one). The script waits
// for the append at its end.
func cmdAppendLater(ts *testscript.TestScript, neg bool, args []string) {
	noNewline := len(args) > 0 && args[0] == "-nonl"
	if noNewline {
		args = args[1:]
	}
	if neg || len(args) != 3 {
		ts.Fatalf("usage: appendlater [-nonl] DELAY SRC DST")
	}
	delay, err := time.ParseDuration(args[0])
	ts.Check(err)
	data := []byte(ts.ReadFile(args[1]))
	if noNewline {
		data = bytes.TrimSuffix(data, []byte("\n"))
	}
	dst := ts.MkAbs(args[2])
	var wg sync.WaitGroup
	var werr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(delay)
		f, err := os.OpenFile(dst, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			werr = err
			return
		}
		_, werr = f.Write(data)
		if err := f.Close(); werr == nil {
			werr = err
		}
	}()
	ts.Defer(func() {
		wg.Wait()
		if werr != nil {
			ts.Fatalf("appendlater: %v", werr)
		}
	})
}

// cmdPayload writes a hook payload to FILE from key=value arguments, which
// the script expands, so that a payload can name $WORK or
// $SHARED_TRANSCRIPTS.
func cmdPayload(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: payload FILE key=value...")
	}
	p := map[string]string{}
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			ts.Fatalf("payload: %q is not key=value", kv)
		}
		p[k] = v
	}
	data, err := json.Marshal(p)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
}
