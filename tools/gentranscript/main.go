// Command gen writes a synthetic Claude Code transcript to standard output,
// for looking at what the benchmarks read or for trying the hook by hand:
//
//	go run ./tools/gentranscript -size 100MB -seed 1 -tail huge > /tmp/t.jsonl
//
// It prints the Result (the reading a correct reader returns, the last
// tool_use id) on standard error.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/muthur/context-budget/tools/gen"
)

func main() {
	size := flag.String("size", "1MB", "target size: a number with an optional KB, MB or GB suffix")
	seed := flag.Uint64("seed", 1, "seed; the same flags give the same bytes")
	window := flag.Int64("window", 200_000, "context window in tokens")
	tail := flag.String("tail", "call", "how the file ends: call, or huge (the last response behind a 3 MB tool result)")
	flag.Parse()
	n, err := gen.ParseSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	opt := gen.Options{Size: n, Seed: *seed, Window: *window}
	switch *tail {
	case "call":
	case "huge":
		opt.Tail = gen.TailBehindHuge
	default:
		fmt.Fprintf(os.Stderr, "gen: -tail must be call or huge, not %q\n", *tail)
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	res, err := gen.Write(w, opt)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	out, _ := json.Marshal(res)
	fmt.Fprintln(os.Stderr, string(out))
}
