// Command run is the hook's process-level benchmark (design §11), run by
// `make bench` from the repository root.
//
// It builds context-budget the way `make build` does and the floor
// (bench/floor: a stdlib-only Go program that reads stdin to EOF), writes
// synthetic transcripts with tools/gen into .cache/bench/ (reused while
// the generator's source is unchanged), then for each case runs the floor
// and the hook alternately, many times, each with the same payload on
// stdin, and reports the median wall time of each, their ratio and the
// hook's peak resident memory. The hook runs on its real path: a payload
// with session_id, transcript_path, cwd (a temporary project) and the
// tool_use_id of the last response in the file, so it finds its record at
// once and never waits.
//
// Each case has its budget, a median ratio to the floor (design §11 as
// raised by issue 16: 1.25× for the common hook call and the status line,
// 1.40× behind a 3 MB tool result and when a notice fires), and peak RSS
// ≤ 8 MiB. The table also gives the p90, the CPU ratio and the minor page
// faults per call, which unlike wall time do not move with the machine's
// load. Other parts of the program add their cases with register
// (cases.go); the rows reserved for them (slots) show until they do. A
// miss is reported, not an error: this is a measurement, not a test.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/muthur/context-budget/tools/gen"
)

// Peak memory budget of design §11 (issue 16).
const maxRSS = 8 << 20

func main() {
	runs := flag.Int("runs", 201, "runs of each program per case")
	sizes := flag.String("sizes", "1MB,100MB,1GB", "transcript sizes, comma-separated")
	cache := flag.String("cache", filepath.Join(".cache", "bench"), "folder for the binaries and transcripts")
	only := flag.String("case", "", "run only the cases whose name contains this text")
	flag.Parse()
	if err := run(*runs, *sizes, *cache, *only); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(runs int, sizeList, cache, only string) error {
	var sizes []int64
	for _, s := range strings.Split(sizeList, ",") {
		n, err := gen.ParseSize(s)
		if err != nil {
			return err
		}
		sizes = append(sizes, n)
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	hook, floor, err := build(cache)
	if err != nil {
		return err
	}
	project, err := os.MkdirTemp("", "context-budget-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(project)

	cases, err := plan(cache, project, sizes)
	if err != nil {
		return err
	}
	load := loadAvg()
	fmt.Fprintf(os.Stderr, "bench: %d runs of each program per case, interleaved\n", runs)
	var rows []row
	for _, c := range cases {
		if !strings.Contains(c.name, only) {
			continue
		}
		if err := c.check(hook); err != nil {
			return err
		}
		r, err := measure(c, hook, floor, runs)
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return fmt.Errorf("no case matches -case %q", only)
	}
	inits, err := initCosts(hook, floor)
	if err != nil {
		return err
	}
	report(os.Stdout, rows, inits, load)
	return nil
}
