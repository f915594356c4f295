package orientation

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/reading"
)

// TestLongActingLineAgrees: a response line past the readers' bound that
// would act (an Edit inside the root) is skipped alike by the scan that
// measures the orientation and by the incremental search that decides
// whether to measure it. Before the one reader, the search kept the
// first 64 MiB of a longer line and the last piece read and decoded the
// splice, which is valid JSON when the cut falls inside one string: it
// found an act the measure never saw.
func TestLongActingLineAgrees(t *testing.T) {
	for _, size := range []int{reading.MaxLine + 1<<20, 70 << 20} {
		t.Run(fmt.Sprint(size>>20, "MiB"), func(t *testing.T) {
			if size > 8<<20 && testing.Short() {
				t.Skip("writes 70 MB")
			}
			path := filepath.Join(t.TempDir(), "s.jsonl")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			w := bufio.NewWriterSize(f, 1<<20)
			resp := func(id, content string) {
				fmt.Fprintf(w, `{"type":"assistant","cwd":"/repo","timestamp":"2026-09-01T08:00:00Z","message":{"id":%q,"model":"claude-opus-4-6","stop_reason":"tool_use","content":[%s],"usage":{"input_tokens":3,"cache_read_input_tokens":40000,"output_tokens":50}}}`+"\n", id, content)
			}
			resp("m0", `{"type":"tool_use","id":"t0","name":"Bash","input":{"command":"ls"}}`)
			resp("m1", `{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"/repo/a.go","old_string":"`+strings.Repeat("x", size)+`","new_string":"y"}}`)
			resp("m2", `{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"ls"}}`)
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			f.Close()
			fi, _ := os.Stat(path)

			var p progress
			searched := p.searchAll(path)
			s, err := ReadOrientation(path)
			if err != nil {
				t.Fatal(err)
			}
			measured := false
			for _, r := range s.Responses {
				if _, _, ok := ownAct(s.Cwd, r.StopReason, r.Acts); ok {
					measured = true
				}
			}
			if searched != measured {
				t.Errorf("the search says acted %v, the measure %v", searched, measured)
			}
			if searched {
				t.Error("a line past reading.MaxLine was read")
			}
			if p.Main.Offset != fi.Size() {
				t.Errorf("the search stopped at %d of %d", p.Main.Offset, fi.Size())
			}
		})
	}
}
