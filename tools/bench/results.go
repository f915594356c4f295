package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/muthur/context-budget/tools/gen"
)

// results is what a run writes (tools/bench/results.json) and the
// README's table is made from.
type results struct {
	Date    time.Time `json:"date"`
	Commit  string    `json:"commit"` // the code measured; "-dirty" when it had changes not committed
	Go      string    `json:"go"`
	Machine machine   `json:"machine"`
	// Load is the load average (1, 5, 15 min) before and after the run:
	// the wall times move with it, the ratios much less.
	Load   [2]string `json:"load_average"`
	Runs   int       `json:"runs"`   // timed runs of each program, per case and repetition
	Repeat int       `json:"repeat"` // repetitions of the whole set of cases
	MaxRSS int64     `json:"max_rss_bytes"`
	// Init is each program's package initialisation.
	Init  map[string]initCost `json:"init"`
	Cases []caseResult        `json:"cases"`
}

type machine struct {
	CPU    string `json:"cpu"`
	CPUs   int    `json:"cpus"`
	Kernel string `json:"kernel"`
	OS     string `json:"os"`
	Arch   string `json:"arch"`
}

// caseResult is one case over every repetition: each figure the median
// of the repetitions' (the peak memory their largest), and the verdict
// on the median ratio.
type caseResult struct {
	Name string `json:"name"`
	Size string `json:"size"`
	repeatStat
	Budget      *float64     `json:"budget"` // null: reported without a budget
	Verdict     string       `json:"verdict"`
	Repetitions []repeatStat `json:"repetitions"`
}

// The verdicts: within the budget and the memory bound, over either, or
// no budget for the ratio and the memory within its bound.
const (
	verdictPass = "pass"
	verdictMiss = "miss"
	verdictNone = "none"
)

// repeatStat is one repetition's measurement of a case: the medians of
// its timed runs.
type repeatStat struct {
	FloorMS     float64 `json:"floor_ms"`
	HookMS      float64 `json:"hook_ms"`
	Ratio       float64 `json:"ratio"`
	P90MS       float64 `json:"p90_ms"`
	CPURatio    float64 `json:"cpu_ratio"`
	Faults      int64   `json:"faults"`
	FloorFaults int64   `json:"floor_faults"`
	PeakRSS     int64   `json:"peak_rss_bytes"`
}

// stat is a repetition's row in the results' units, rounded as stored.
func (r rep) stat() repeatStat {
	return repeatStat{
		FloorMS:     millis(r.floorMed),
		HookMS:      millis(r.hookMed),
		Ratio:       round3(float64(r.hookMed) / float64(r.floorMed)),
		P90MS:       millis(r.hookP90),
		CPURatio:    round3(float64(r.hookCPU) / float64(max(r.floorCPU, 1))),
		Faults:      r.hookFlt,
		FloorFaults: r.floorFlt,
		PeakRSS:     r.hookRSS,
	}
}

// summarize makes a case's result from its repetitions.
func summarize(c benchCase, reps []repeatStat) caseResult {
	med := func(f func(repeatStat) float64) float64 {
		v := make([]float64, len(reps))
		for i, r := range reps {
			v[i] = f(r)
		}
		return median(v)
	}
	res := caseResult{
		Name: c.name,
		Size: gen.FormatSize(c.size),
		repeatStat: repeatStat{
			FloorMS:     med(func(r repeatStat) float64 { return r.FloorMS }),
			HookMS:      med(func(r repeatStat) float64 { return r.HookMS }),
			Ratio:       med(func(r repeatStat) float64 { return r.Ratio }),
			P90MS:       med(func(r repeatStat) float64 { return r.P90MS }),
			CPURatio:    med(func(r repeatStat) float64 { return r.CPURatio }),
			Faults:      int64(math.Round(med(func(r repeatStat) float64 { return float64(r.Faults) }))),
			FloorFaults: int64(math.Round(med(func(r repeatStat) float64 { return float64(r.FloorFaults) }))),
		},
		Repetitions: reps,
	}
	for _, r := range reps {
		res.PeakRSS = max(res.PeakRSS, r.PeakRSS)
	}
	if c.budget > 0 {
		b := c.budget
		res.Budget = &b
	}
	res.Verdict = verdict(res.Ratio, res.Budget, res.PeakRSS)
	return res
}

// verdict judges a median ratio against its budget (nil: none) and the
// peak memory against maxRSS.
func verdict(ratio float64, budget *float64, rss int64) string {
	switch {
	case rss > maxRSS || (budget != nil && ratio > *budget):
		return verdictMiss
	case budget == nil:
		return verdictNone
	}
	return verdictPass
}

// median is the middle value of v, the mean of the middle two for an even
// count, rounded as stored.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(v))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return round3((s[n/2-1] + s[n/2]) / 2)
}

func millis(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// writeResults writes r to name as indented JSON.
func writeResults(name string, r results) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(data, '\n'), 0o644)
}

// readResults reads a results file.
func readResults(name string) (results, error) {
	var r results
	data, err := os.ReadFile(name)
	if err != nil {
		return r, err
	}
	return r, json.Unmarshal(data, &r)
}

// gitCommit names the commit measured, with "-dirty" when the tree had
// changes besides the benchmark's own outputs.
func gitCommit(outputs ...string) string {
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	commit := strings.TrimSpace(string(out))
	args := []string{"status", "--porcelain", "--untracked-files=no", "--", "."}
	for _, o := range outputs {
		args = append(args, ":(exclude)"+o)
	}
	if st, err := exec.Command("git", args...).Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		commit += "-dirty"
	}
	return commit
}

// goVersion is the version of the go command that built the programs.
func goVersion(gobin string) string {
	out, err := exec.Command(gobin, "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}

func thisMachine() machine {
	return machine{CPU: cpuModel(), CPUs: runtime.NumCPU(), Kernel: kernel(), OS: runtime.GOOS, Arch: runtime.GOARCH}
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func kernel() string {
	data, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return runtime.GOOS
	}
	return "Linux " + strings.TrimSpace(string(data))
}

// loadAvg is the machine's load average over 1, 5 and 15 minutes.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
