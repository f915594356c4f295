package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["climb"] = cmdClimb
}

// cmdClimb writes the pinned example's transcript: `climb FILE TO [MODEL]`.
// Its first response carries 40,000 tokens of context (38,000 read from the
// cache) and each next one 2,500 more, up to TO; every response is a
// tool_use turn with 5-minute cache writes, followed by its tool result.
func cmdClimb(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: climb FILE TO [MODEL]")
	}
	to, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	model := "claude-opus-4-6"
	if len(args) == 3 {
		model = args[2]
	}
	var b strings.Builder
	for i := 0; 40_000+2_500*int64(i) <= to; i++ {
		ctx := 40_000 + 2_500*int64(i)
		read := ctx - 2_500
		if i == 0 {
			read = 38_000
		}
		fmt.Fprintf(&b, `{"type":"assistant","sessionId":"s1","message":{"id":"msg_%d","model":%q,"role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":"true"}}],"stop_reason":"tool_use","usage":{"input_tokens":0,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"cache_creation":{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":0},"output_tokens":120}}}`+"\n",
			i, model, i, read, ctx-read, ctx-read)
		fmt.Fprintf(&b, `{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"ok"}]}}`+"\n", i)
	}
	ts.Check(writeFile(ts.MkAbs(args[0]), b.String()))
}
