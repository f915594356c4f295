package main

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/muthur/context-budget/tools/gen"
)

// sample is one run of a program.
type sample struct {
	wall   time.Duration
	cpu    time.Duration // user + system time of the child
	faults int64         // minor page faults of the child
}

// exe runs bin with args, payload on stdin and env, and measures its wall
// time from start to reaped exit, as Claude Code waits for a hook.
func exe(bin string, args []string, payload []byte, env []string) (sample, []byte, []byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = env
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, nil, nil, fmt.Errorf("%s %s: %v (stderr: %q)", bin, strings.Join(args, " "), err, stderr.String())
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return sample{wall: wall, cpu: cpu, faults: minorFaults(cmd.ProcessState)}, stdout.Bytes(), stderr.Bytes(), nil
}

// check runs the hook once on the case's transcript with a warn line under
// any reading and a fresh session, and makes sure the notice names the
// reading the generator promised: the hook being timed reads the right
// record, not an error path that happens to be silent. The lines are
// fixed for it, so that a fresh session costs no pricing pass over the
// whole transcript.
func (c benchCase) check(hook string) error {
	if c.args != nil {
		return nil // not the hook: its output is checked on every run
	}
	session := fmt.Sprintf("bench-check-%d", time.Now().UnixNano())
	project, err := os.MkdirTemp("", "context-budget-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(project)
	p := payload(session, c.file, project, c.res.ToolUseID, nil)
	s, out, _, err := exe(hook, []string{"hook"}, p, append(cleanEnv(), "MUTHUR_CONTEXT_BUDGET_WARN=1000", "MUTHUR_CONTEXT_BUDGET_LINES=fixed"))
	if err != nil {
		return err
	}
	want := fmt.Sprintf("~%dk", (c.res.Reading+500)/1000)
	if !bytes.Contains(out, []byte(want)) {
		return fmt.Errorf("%s: the hook's notice does not name the reading %s: %q", c.file, want, out)
	}
	if s.wall > 500*time.Millisecond {
		return fmt.Errorf("%s: the hook took %v: did it wait for its record?", c.file, s.wall)
	}
	return nil
}

// rep is one measurement of one case: a repetition's row.
type rep struct {
	floorMed, hookMed time.Duration
	hookP90           time.Duration
	floorCPU, hookCPU time.Duration // medians
	floorFlt, hookFlt int64         // median minor page faults
	hookRSS           int64
}

const warmup = 5

// measure runs the floor and the hook alternately, starting with each in
// turn, so that drift in the machine's state (frequency, cache, other
// load) falls on both alike. After the case's warm-up, the probe makes
// sure the call runs no context-budget-cli, and no run may change the
// session's line cache: either would time a miss, not the call the row
// names.
func measure(c benchCase, b bins, pr *probe, runs int) (rep, error) {
	var r rep
	if c.setup != nil {
		if err := c.setup(c, b.hook); err != nil {
			return r, fmt.Errorf("%s: setup: %v", c.name, err)
		}
	}
	cached := stampOf(c.lineCache)
	if c.lineCache != "" && !cached.exists() {
		return r, fmt.Errorf("%s: no line cache %s after the warm-up", c.name, c.lineCache)
	}
	held := func(when string) error {
		if c.lineCache != "" && !stampOf(c.lineCache).same(cached) {
			return fmt.Errorf("%s (%s): %s rewrote the line cache %s: the call recomputed its lines, a miss, not the call this row measures",
				c.name, gen.FormatSize(c.size), when, c.lineCache)
		}
		return nil
	}
	if err := pr.check(c); err != nil {
		return r, err
	}
	if err := held("the probe's call"); err != nil {
		return r, err
	}
	var floorRuns, hookRuns []sample
	for i := -warmup; i < runs; i++ {
		p := c.payload(i + warmup)
		order := []bool{false, true}
		if i%2 != 0 {
			order = []bool{true, false}
		}
		for _, isHook := range order {
			bin, args := b.floor, []string(nil)
			if isHook {
				bin, args = b.hook, c.argv()
				if c.before != nil {
					c.before()
				}
			}
			s, out, errOut, err := exe(bin, args, p, c.env)
			if err != nil {
				return r, err
			}
			if !isHook {
				floorRuns = appendTimed(floorRuns, s, i)
				continue
			}
			if err := c.checkOutput(out, errOut); err != nil {
				return r, err
			}
			if err := held(fmt.Sprintf("run %d", i)); err != nil {
				return r, err
			}
			hookRuns = appendTimed(hookRuns, s, i)
		}
	}
	r.floorMed, _, r.floorCPU, r.floorFlt = stats(floorRuns)
	r.hookMed, r.hookP90, r.hookCPU, r.hookFlt = stats(hookRuns)
	for i := range rssRuns {
		p := c.payload(runs + warmup + i)
		if c.before != nil {
			c.before()
		}
		h, err := peakRSS(b.hook, c.argv(), p, c.env)
		if err != nil {
			return r, fmt.Errorf("%s: peak RSS: %v", c.name, err)
		}
		if err := held("a traced run"); err != nil {
			return r, err
		}
		r.hookRSS = max(r.hookRSS, h)
	}
	return r, nil
}

// appendTimed keeps the samples of the timed runs, not the warm-up's
// (i < 0).
func appendTimed(ss []sample, s sample, i int) []sample {
	if i < 0 {
		return ss
	}
	return append(ss, s)
}

// checkOutput makes sure a run of the case answered as the case expects:
// nothing on stderr, and the status line's words, the notice, or silence.
func (c benchCase) checkOutput(out, errOut []byte) error {
	bad := len(errOut) > 0
	if c.output != "" {
		bad = bad || !bytes.Contains(out, []byte(c.output))
	} else {
		bad = bad || (len(out) > 0) != c.notice
	}
	if bad {
		return fmt.Errorf("%s (%s): unexpected output: stdout %q, stderr %q", c.name, gen.FormatSize(c.size), out, errOut)
	}
	return nil
}

// rssRuns is how many traced runs of each program measure peak memory;
// the largest counts.
const rssRuns = 5

// stats returns the median and 90th percentile wall time, the median
// CPU time and the median count of minor page faults.
func stats(ss []sample) (med, p90, cpu time.Duration, faults int64) {
	walls := make([]time.Duration, len(ss))
	cpus := make([]time.Duration, len(ss))
	flts := make([]int64, len(ss))
	for i, s := range ss {
		walls[i], cpus[i], flts[i] = s.wall, s.cpu, s.faults
	}
	slices.Sort(walls)
	slices.Sort(cpus)
	slices.Sort(flts)
	return walls[len(walls)/2], walls[len(walls)*9/10], cpus[len(cpus)/2], flts[len(flts)/2]
}

// initCost is the package initialisation of a program as
// GODEBUG=inittrace reports it: the sum over packages, median of 21 runs.
type initCost struct {
	MS       float64 `json:"ms"`
	Packages int     `json:"packages"`
	Bytes    int64   `json:"bytes"`
	Allocs   int64   `json:"allocs"`
}

// initCosts measures the package initialisation of the hook's program
// (its hook command, on an empty payload) and of the floor.
func initCosts(b bins) (map[string]initCost, error) {
	out := map[string]initCost{}
	for name, bin := range map[string]string{"context-budget": b.hook, "floor": b.floor} {
		var runs []initCost
		for range 21 {
			args := []string{"hook"}
			if name == "floor" {
				args = nil
			}
			_, _, errOut, err := exe(bin, args, nil, append(cleanEnv(), "GODEBUG=inittrace=1"))
			if err != nil {
				return nil, err
			}
			runs = append(runs, parseInittrace(errOut))
		}
		slices.SortFunc(runs, func(a, b initCost) int { return cmp.Compare(a.MS, b.MS) })
		out[name] = runs[len(runs)/2]
	}
	return out, nil
}

// parseInittrace sums lines like
// "init internal/bytealg @0.008 ms, 0.001 ms clock, 0 bytes, 0 allocs".
func parseInittrace(text []byte) initCost {
	var c initCost
	for _, line := range strings.Split(string(text), "\n") {
		f := strings.Fields(line)
		if len(f) < 11 || f[0] != "init" || f[6] != "clock," {
			continue
		}
		ms, _ := strconv.ParseFloat(f[4], 64)
		b, _ := strconv.ParseInt(f[7], 10, 64)
		a, _ := strconv.ParseInt(f[9], 10, 64)
		c.MS += ms
		c.Bytes += b
		c.Allocs += a
		c.Packages++
	}
	return c
}
