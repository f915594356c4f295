// Command bench is the hook's process benchmark (design §11), run by
// `make bench` from the repository root.
//
// It builds context-budget and context-budget-cli the way `make build`
// does, and the floor (tools/bench/floor: a stdlib-only Go program that
// reads stdin to EOF), writes synthetic transcripts with tools/gen into
// the user's cache folder, context-budget/bench/ (reused while the
// generator's source is unchanged), then
// for each case runs the floor and the hook alternately, many times, each
// with the same payload on stdin, and takes the median wall time of each,
// their ratio, the hook's p90, CPU ratio, minor page faults and peak
// resident memory. The hook runs on its real path: a payload with
// session_id, transcript_path, cwd (a temporary project) and the
// tool_use_id of the last response in the file, so it finds its record
// at once and never waits; each case is warmed first, and a measured call
// that recomputes its lines or reaches context-budget-cli fails the run.
//
// The whole set of cases runs -repeat times; each case's ratio is the
// median of the repetitions' and is judged against its budget (cases.go).
// The run writes the results file and README.md beside it, made from the
// results with README.md.tmpl; -readme only remakes README.md. A miss is
// reported, not an error: this is a measurement, not a test.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/muthur/context-budget/tools/gen"
)

func main() {
	runs := flag.Int("runs", 201, "timed runs of each program per case")
	sizes := flag.String("sizes", "1MB,100MB,1GB", "transcript sizes, comma-separated")
	repeat := flag.Int("repeat", 1, "repetitions of the whole set of cases")
	cache := flag.String("cache", benchCache(), "folder for the binaries and transcripts")
	only := flag.String("case", "", "run only the cases whose name contains this text")
	out := flag.String("results", filepath.Join("tools", "bench", "results.json"),
		"the results file to write, README.md beside it; empty: write neither")
	readme := flag.Bool("readme", false, "measure nothing: make README.md again from the results file")
	flag.Parse()
	var err error
	if *readme {
		err = remakeReadme(*out)
	} else {
		err = run(*runs, *repeat, *sizes, *cache, *only, *out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// readmeName is the README made from the results file name.
func readmeName(results string) string { return filepath.Join(filepath.Dir(results), "README.md") }

func remakeReadme(name string) error {
	r, err := readResults(name)
	if err != nil {
		return err
	}
	return writeReadme(readmeName(name), r)
}

func run(runs, repeat int, sizeList, cache, only, out string) error {
	if runs < 1 || repeat < 1 {
		return fmt.Errorf("-runs and -repeat must be at least 1")
	}
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
	// The commit of the code the programs are built from, the run's own
	// outputs aside.
	var commit string
	if out != "" {
		commit = gitCommit(out, readmeName(out))
	} else {
		commit = gitCommit()
	}
	gobin := os.Getenv("GO")
	if gobin == "" {
		gobin = "go"
	}
	b, err := build(cache, gobin)
	if err != nil {
		return err
	}
	pr, err := newProbe(filepath.Join(cache, "probe"), b)
	if err != nil {
		return err
	}
	project, err := os.MkdirTemp("", "context-budget-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(project)

	all, err := plan(planEnv{cache: cache, project: project}, sizes)
	if err != nil {
		return err
	}
	var cases []benchCase
	for _, c := range all {
		if strings.Contains(c.name, only) {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		return fmt.Errorf("no case matches -case %q", only)
	}
	for _, c := range cases {
		if err := c.check(b.hook); err != nil {
			return err
		}
	}
	res := results{
		Date:    time.Now().UTC().Truncate(time.Second),
		Go:      goVersion(gobin),
		Machine: thisMachine(),
		Runs:    runs,
		Repeat:  repeat,
		MaxRSS:  maxRSS,
		Commit:  commit,
	}
	res.Load[0] = loadAvg()
	fmt.Fprintf(os.Stderr, "bench: %d cases, %d runs of each program per case, interleaved, %d repetition(s)\n", len(cases), runs, repeat)
	reps := make([][]repeatStat, len(cases))
	for n := range repeat {
		for i, c := range cases {
			r, err := measure(c, b, pr, runs)
			if err != nil {
				return err
			}
			st := r.stat()
			reps[i] = append(reps[i], st)
			fmt.Fprintf(os.Stderr, "bench: %d/%d %6s %-36s %.2f×\n", n+1, repeat, gen.FormatSize(c.size), c.name, st.Ratio)
		}
	}
	for i, c := range cases {
		res.Cases = append(res.Cases, summarize(c, reps[i]))
	}
	if res.Init, err = initCosts(b); err != nil {
		return err
	}
	res.Load[1] = loadAvg()
	if out != "" {
		if err := writeResults(out, res); err != nil {
			return err
		}
		if err := writeReadme(readmeName(out), res); err != nil {
			return err
		}
	}
	table, err := render("table", res)
	if err != nil {
		return err
	}
	os.Stdout.Write(table)
	miss := 0
	for _, c := range res.Cases {
		if c.Verdict == verdictMiss {
			miss++
		}
	}
	if miss == 0 {
		fmt.Println("result: every case within its budget")
	} else {
		fmt.Printf("result: %d case(s) MISS their budget\n", miss)
	}
	return nil
}

// benchCache is the default folder for the binaries and transcripts: the
// user's cache folder, never the working tree (a plugin installed from a
// clone copies the tree); .cache/bench where there is none.
func benchCache() string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "context-budget", "bench")
	}
	return filepath.Join(".cache", "bench")
}
