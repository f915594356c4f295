package hook

import (
	"bytes"
	"testing"
	"time"
)

// TestOperatorDeadlineWithinTotal: the operator's wait ends by the total
// deadline, whenever it starts; a call late in its budget used to give
// the look-up its whole bound and answer past the total (issue 20, class
// 6).
func TestOperatorDeadlineWithinTotal(t *testing.T) {
	g := &guard{start: time.Now().Add(-2 * time.Second)}
	if got, last := g.operatorDeadline(), g.start.Add(totalBudget-50*time.Millisecond); !got.Equal(last) {
		t.Errorf("late in the budget: the operator's deadline is %v after the start, want %v",
			got.Sub(g.start), last.Sub(g.start))
	}
	g = &guard{start: time.Now()}
	if got := g.operatorDeadline(); got.After(g.start.Add(totalBudget)) {
		t.Errorf("the operator's deadline is %v after the start, past the total %v", got.Sub(g.start), totalBudget)
	}
}

// TestTotalDeadlineSendsTheRecordedNotice: a call that recorded its level
// and is still waiting for the operator at the total deadline answers
// with the notice as it reads with no operator, once; a call still
// deciding is silent.
func TestTotalDeadlineSendsTheRecordedNotice(t *testing.T) {
	var out bytes.Buffer
	g := &guard{start: time.Now(), out: &out}
	if !g.beginRecord() {
		t.Fatal("beginRecord refused a call in its budget")
	}
	g.recordedWith("the notice\n")
	g.totalDeadline()
	if g.answer([]byte("late\n")) {
		t.Error("the call answered after the deadline did")
	}
	if out.String() != "the notice\n" {
		t.Errorf("the deadline answered %q, want the recorded notice", out.String())
	}

	out.Reset()
	g = &guard{start: time.Now(), out: &out}
	g.quietDeadline()
	if g.beginRecord() || g.answer([]byte("late\n")) || out.Len() != 0 {
		t.Errorf("after the quiet deadline: %q, want silence and nothing recorded", out.String())
	}
}
