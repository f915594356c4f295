package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/muthur/context-budget/tools/gen"
)

// report prints the table, the verdict against each case's budget, the
// slots not yet filled, the init costs and the machine.
func report(w io.Writer, rows []row, inits map[string]initCost, loadBefore string) {
	fmt.Fprintf(w, "\nprogram vs floor: median wall time of %d runs each, interleaved; p90 of the program; CPU is user+system, median;\n", len(rows[0].hook))
	fmt.Fprintf(w, "faults are minor page faults per call, median (program / floor); peak RSS (VmHWM) is the largest of %d traced runs\n\n", rssRuns)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "size\tcase\tfloor\tprogram\tratio\tp90\tCPU ratio\tfaults\tpeak RSS\tbudget\t\t")
	miss := 0
	for _, r := range rows {
		ratio := float64(r.hookMed) / float64(r.floorMed)
		cpuRatio := float64(r.hookCPU) / float64(max(r.floorCPU, 1))
		verdict := "ok"
		if ratio > r.c.budget || r.hookRSS > maxRSS {
			verdict = "MISS"
			miss++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f×\t%s\t%.2f×\t%d / %d\t%s\t≤ %.2f×\t%s\t\n",
			gen.FormatSize(r.c.size), r.c.name, ms(r.floorMed), ms(r.hookMed), ratio,
			ms(r.hookP90), cpuRatio, r.hookFlt, r.floorFlt, mib(r.hookRSS), r.c.budget, verdict)
	}
	for _, sl := range slots {
		filled := false
		for _, r := range rows {
			filled = filled || r.c.name == sl.name
		}
		if !filled {
			fmt.Fprintf(tw, "\t%s\t\t\t\t\t\t\t\t≤ %.2f×\tnot measured yet\t\n", sl.name, sl.budget)
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "\nbudget (design §11, issue 16): median ratio to the floor within each case's budget, peak RSS ≤ %s\n", mib(maxRSS))
	if miss == 0 {
		fmt.Fprintln(w, "result: within budget in every case")
	} else {
		fmt.Fprintf(w, "result: %d case(s) MISS the budget\n", miss)
	}
	fmt.Fprintln(w, "\npackage init (GODEBUG=inittrace=1, sum over packages, median of 21 runs):")
	for _, name := range []string{"context-budget", "floor"} {
		c := inits[name]
		fmt.Fprintf(w, "  %-15s %7.3f ms clock, %3d packages, %7d bytes, %4d allocs\n",
			name, float64(c.clock)/float64(time.Millisecond), c.pkgs, c.bytes, c.allocs)
	}
	fmt.Fprintf(w, "\nmachine: %s, %d CPUs, %s, %s %s/%s\n", cpuModel(), runtime.NumCPU(), kernel(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "load average (1, 5, 15 min): %s before, %s after\n", loadBefore, loadAvg())
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

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

// loadAvg is the machine's load average: on a shared machine the wall
// times move with it, the ratio much less (the runs are interleaved).
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
