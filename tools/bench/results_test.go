package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestReadmeIsMadeFromResults holds README.md to what README.md.tmpl
// makes of the committed results.json, so the two cannot drift.
func TestReadmeIsMadeFromResults(t *testing.T) {
	r, err := readResults("results.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cases) == 0 {
		t.Fatal("results.json holds no case")
	}
	want, err := render("readme", r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("README.md is not what README.md.tmpl makes of results.json; run `go run ./tools/bench -readme` from the repository root")
	}
	for _, c := range r.Cases {
		if !bytes.Contains(got, []byte("| "+c.Size+" | "+c.Name+" |")) {
			t.Errorf("README.md has no row for %s at %s", c.Name, c.Size)
		}
	}
}

// TestSummarize: a case's ratio is the median of its repetitions', its
// peak memory their largest, and the verdict weighs both.
func TestSummarize(t *testing.T) {
	reps := []repeatStat{
		{FloorMS: 1.0, HookMS: 1.3, Ratio: 1.30, Faults: 300, PeakRSS: 3 << 20},
		{FloorMS: 1.2, HookMS: 1.7, Ratio: 1.42, Faults: 310, PeakRSS: 4 << 20},
		{FloorMS: 1.1, HookMS: 1.4, Ratio: 1.27, Faults: 290, PeakRSS: 3 << 20},
	}
	c := benchCase{name: "hook: common", size: 1 << 20, budget: budgetCommon}
	got := summarize(c, reps)
	if got.Ratio != 1.30 || got.FloorMS != 1.1 || got.HookMS != 1.4 || got.Faults != 300 {
		t.Errorf("medians: ratio %v floor %v hook %v faults %v; want 1.30, 1.1, 1.4, 300", got.Ratio, got.FloorMS, got.HookMS, got.Faults)
	}
	if got.PeakRSS != 4<<20 {
		t.Errorf("peak RSS %d, want the largest, %d", got.PeakRSS, 4<<20)
	}
	if got.Budget == nil || *got.Budget != budgetCommon || got.Verdict != verdictPass {
		t.Errorf("budget %v verdict %q; want %v, pass", got.Budget, got.Verdict, budgetCommon)
	}
	if got.Size != "1MB" || len(got.Repetitions) != 3 {
		t.Errorf("size %q, %d repetitions", got.Size, len(got.Repetitions))
	}

	// One repetition over the budget does not miss it; the median does.
	reps[2].Ratio = 1.40
	if got := summarize(c, reps); got.Ratio != 1.40 || got.Verdict != verdictMiss {
		t.Errorf("ratio %v verdict %q; want 1.40, miss", got.Ratio, got.Verdict)
	}
	// No budget: no verdict on the ratio, but memory is still bounded.
	c.budget = 0
	if got := summarize(c, reps); got.Budget != nil || got.Verdict != verdictNone {
		t.Errorf("no budget: budget %v verdict %q; want nil, none", got.Budget, got.Verdict)
	}
	reps[0].PeakRSS = maxRSS + 1
	if got := summarize(c, reps); got.Verdict != verdictMiss {
		t.Errorf("over %d bytes: verdict %q, want miss", maxRSS, got.Verdict)
	}
}

// TestMedian: the middle value, or the mean of the middle two.
func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		v    []float64
		want float64
	}{
		{[]float64{1.2}, 1.2},
		{[]float64{1.3, 1.1, 1.2}, 1.2},
		{[]float64{1.4, 1.1, 1.2, 1.3}, 1.25},
		{nil, 0},
	} {
		if got := median(tc.v); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// TestTableRendersNoBudgetAsDash: a case without a budget shows "—" in
// both the budget and the verdict columns, a miss stands out.
func TestTableRendersNoBudgetAsDash(t *testing.T) {
	b := 1.35
	r := results{Runs: 3, Repeat: 1, Init: map[string]initCost{}, Cases: []caseResult{
		{Name: "a", Size: "1MB", repeatStat: repeatStat{Ratio: 1.5}, Budget: &b, Verdict: verdictMiss, Repetitions: []repeatStat{{Ratio: 1.5}}},
		{Name: "b", Size: "1MB", repeatStat: repeatStat{Ratio: 1.7}, Verdict: verdictNone, Repetitions: []repeatStat{{Ratio: 1.7}}},
	}}
	out, err := render("table", r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| 1MB | a |", "| ≤ 1.35× | **MISS** |", "| 1MB | b |", "| — | — |"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
