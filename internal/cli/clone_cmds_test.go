package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["oriented"] = cmdOriented
}

// cmdOriented writes a session that first acts partway: `oriented FILE AT
// TO [MODEL]`. Its first response writes 20,000 tokens of context to the
// cache, each next one 2,500 more; the response at AT tokens edits a file
// of its project (/repo, as the corpus's sessions name it), the others
// read; the last carries TO. The prior alone puts the lines of a session
// oriented at 25k near 37k and 51k on Opus 4.6.
func cmdOriented(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 || len(args) > 4 {
		ts.Fatalf("usage: oriented FILE AT TO [MODEL]")
	}
	at, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	to, err := strconv.ParseInt(args[2], 10, 64)
	ts.Check(err)
	model := "claude-opus-4-6"
	if len(args) == 4 {
		model = args[3]
	}
	var b strings.Builder
	for i, ctx := 0, int64(20_000); ctx <= to; i, ctx = i+1, ctx+2_500 {
		read, write := ctx-2_500, int64(2_500)
		if i == 0 {
			read, write = 0, 20_000
		}
		tool, input := "Read", `{"file_path":"/repo/a.go"}`
		if ctx == at {
			tool, input = "Edit", `{"file_path":"/repo/a.go","old_string":"a","new_string":"b"}`
		}
		fmt.Fprintf(&b, `{"type":"assistant","sessionId":"me","cwd":"/repo","timestamp":"2026-11-30T05:%02d:00.000Z","message":{"id":"msg_%d","model":%q,"role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":%q,"input":%s}],"stop_reason":"tool_use","usage":{"input_tokens":0,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"cache_creation":{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":0},"output_tokens":120}}}`+"\n",
			i%60, i, model, i, tool, input, read, write, write)
		fmt.Fprintf(&b, `{"type":"user","sessionId":"me","cwd":"/repo","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"ok"}]}}`+"\n", i)
	}
	ts.Check(writeFile(ts.MkAbs(args[0]), b.String()))
}
