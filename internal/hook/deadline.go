package hook

import (
	"io"
	"os"
	"sync"
	"time"
)

// The hook's budget for one call (design §2, §11). By quietBudget from its
// start a call has decided: nothing due, or a level recorded; a call still
// deciding then (a transcript whose reads block, a session lock held by a
// stuck process, a cold 300 MB final line) goes silent, having recorded
// nothing, and the next call decides again. A call that recorded a level
// may then spend up to operatorBudget resolving the operator; by
// totalBudget it has answered: with the operator's facts if they came in
// time, else with the notice as it reads when no operator is known. A
// recorded level is never left unsent by the deadline, and a level not
// recorded is never sent (record before sending, design §5). They are
// variables only so that a test driving the real program over hundreds of
// sessions on a loaded machine can lengthen them (TestOnlyLongDeadlines).
var (
	quietBudget    = time.Second
	operatorBudget = 1500 * time.Millisecond
	// quietBudget + operatorBudget, written as a constant: a variable
	// computed from variables would be a package init (init_test.go).
	totalBudget = time.Second + 1500*time.Millisecond
	// recordWait bounds the wait for the call's own record inside the
	// quiet budget, leaving room to decide after it.
	recordWait = 900 * time.Millisecond
	// pricingBudget bounds the priced lines inside the quiet budget: past
	// it the call decides on the fixed lines.
	pricingBudget = 950 * time.Millisecond
)

// Phases of a call, in order.
const (
	deciding = iota
	recording
	recorded
	answered
)

// guard keeps the deadline of one hook call. Its timers run beside
// the call; a blocked read cannot hold them up.
type guard struct {
	start time.Time
	out   io.Writer
	// exit ends the process; nil when the hook runs inside another
	// program (tests), where the guard only keeps the call from answering
	// late.
	exit func(int)

	mu       sync.Mutex
	phase    int
	fallback string // the notice without the operator's facts, once recorded
	// late makes the answer a deadline gives instead of silence: an
	// armed fuse's deny (it fails closed).
	late   func() []byte
	timers []*time.Timer
}

// newGuard starts the guard of a call, before its payload is read:
// a payload that has not come by totalBudget (stdin left open) is
// silence. When the hook is the process (its output is the process's
// stdout) a deadline ends the process; otherwise the call goes silent but
// runs on.
func newGuard(stdout io.Writer) *guard {
	g := &guard{start: time.Now(), out: stdout}
	if f, ok := stdout.(*os.File); ok && f == os.Stdout {
		g.exit = os.Exit
	}
	g.timers = append(g.timers, time.AfterFunc(totalBudget, g.quietDeadline))
	return g
}

// begin starts the call's budget once its payload is in: Claude Code
// writes it at once, and parallel calls may be started before any of
// them gets it.
func (g *guard) begin() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.timers[0].Stop()
	g.start = time.Now()
	g.timers = append(g.timers,
		time.AfterFunc(quietBudget, g.quietDeadline),
		time.AfterFunc(totalBudget, g.totalDeadline))
}

// stop ends the guard when the call returns on its own.
func (g *guard) stop() {
	for _, t := range g.timers {
		t.Stop()
	}
}

// lateWith sets what makes the answer the deadlines give instead of
// silence.
func (g *guard) lateWith(late func() []byte) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.late = late
}

// giveLate writes the late answer; the caller holds mu.
func (g *guard) giveLate() {
	if g.late != nil {
		g.out.Write(g.late())
	}
}

func (g *guard) quietDeadline() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.phase != deciding {
		return // a record under way or made: the total deadline rules
	}
	g.phase = answered
	g.giveLate()
	if g.exit != nil {
		g.exit(0)
	}
}

func (g *guard) totalDeadline() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.phase == recorded && g.fallback != "" {
		g.out.Write([]byte(g.fallback))
	}
	if g.phase == answered {
		return
	}
	if g.fallback == "" {
		g.giveLate()
	}
	g.phase = answered
	if g.exit != nil {
		g.exit(0)
	}
}

// pricingDeadline is when priced lines must be ready, leaving the rest of
// the quiet budget to record.
func (g *guard) pricingDeadline() time.Time { return g.start.Add(pricingBudget) }

// recordDeadline is when the wait for the session's lock must end.
func (g *guard) recordDeadline() time.Time { return g.start.Add(quietBudget) }

// operatorDeadline is when the operator look-up must end: its bound from
// now, and in time to answer before the total deadline.
func (g *guard) operatorDeadline() time.Time {
	d := time.Now().Add(operatorBudget)
	if last := g.start.Add(totalBudget - 50*time.Millisecond); d.After(last) {
		d = last
	}
	return d
}

// beginRecord is asked under the session's lock before a level is
// recorded: false past the quiet deadline, when the call has gone silent.
func (g *guard) beginRecord() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.phase != deciding || time.Since(g.start) >= quietBudget {
		return false
	}
	g.phase = recording
	return true
}

// recordedWith notes that the level is on disk, and the notice to send if
// the operator does not come in time.
func (g *guard) recordedWith(fallback string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.phase == recording {
		g.phase, g.fallback = recorded, fallback
	}
}

// answer writes the call's output unless the deadline answered first; it
// reports whether it wrote.
func (g *guard) answer(out []byte) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.phase == answered {
		return false
	}
	g.phase = answered
	if len(out) > 0 {
		g.out.Write(out)
	}
	return true
}

// testOnlyNoDeadline is a guard whose deadlines never come, for tests
// that compare decisions, not timings, on a loaded machine.
func testOnlyNoDeadline() *guard {
	return &guard{start: time.Now().Add(24 * time.Hour), out: io.Discard}
}

// TestOnlyLongDeadlines gives every deadline of a call a minute, for
// tests that drive the real program over many sessions on a loaded
// machine and compare its decisions, not its timings.
func TestOnlyLongDeadlines() {
	quietBudget, operatorBudget, recordWait, pricingBudget = 60*time.Second, 60*time.Second, 50*time.Second, 55*time.Second
	totalBudget = quietBudget + operatorBudget
}

// TestOnlyLongQuiet gives a call ten minutes to decide and record, and
// keeps the bounds of the waits inside it (for the call's own record,
// for the operator): tests that check what a call answers, or which
// bounded wait ran out, then get the same answer on a loaded machine as
// on a quiet one, and a read that blocks shows as a call that does not
// answer. The quiet deadline itself is tested with the real budgets.
func TestOnlyLongQuiet() {
	quietBudget, pricingBudget = 10*time.Minute, 10*time.Minute-5*time.Second
	totalBudget = quietBudget + operatorBudget
}
