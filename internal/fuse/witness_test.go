package fuse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/fuse/guard"
	"github.com/muthur/context-budget/internal/tuning"
)

// TestJudge: an arm file is held to its witness; what lowers the cap it
// keeps (no cap, a higher one, another unit, a later baseline) is
// tampering, a missing arm is restored, and a stronger one rewrites the
// witness.
func TestJudge(t *testing.T) {
	usd := func(v float64) tuning.Amount { return tuning.Amount{USD: v} }
	armed := Arm{Cap: usd(5), Set: true, Base: Sum{USD: 1}, At: "t1"}
	w := witness{Arm: armed}
	for _, c := range []struct {
		name             string
		a                Arm
		aok              bool
		w                witness
		wok              bool
		env              tuning.Amount
		restore, rewrite bool
		tamper           string
		useCap           tuning.Amount
	}{
		{name: "agree", a: armed, aok: true, w: w, wok: true, useCap: usd(5)},
		{name: "state removed", w: w, wok: true, restore: true, useCap: usd(5)},
		{name: "arm removed, env cap", w: w, wok: true, env: usd(50), restore: true, useCap: usd(5)},
		{name: "fake disarm", a: Arm{Set: true}, aok: true, w: w, wok: true, tamper: "sets no cap where its witness keeps a cap of $5.00", useCap: usd(5)},
		{name: "higher cap", a: Arm{Cap: usd(50), Set: true, Base: armed.Base}, aok: true, w: w, wok: true, tamper: "sets a cap of $50.00", useCap: usd(5)},
		{name: "other unit", a: Arm{Cap: tuning.Amount{Tokens: 1}, Set: true}, aok: true, w: w, wok: true, tamper: "where its witness keeps", useCap: usd(5)},
		{name: "later base", a: Arm{Cap: usd(5), Set: true, Base: Sum{USD: 4}, At: "t1"}, aok: true, w: w, wok: true, tamper: "later baseline", useCap: usd(5)},
		{name: "lower cap rewrites", a: Arm{Cap: usd(2), Set: true, Base: armed.Base}, aok: true, w: w, wok: true, rewrite: true, useCap: usd(2)},
		{name: "witness gone", a: armed, aok: true, rewrite: true, useCap: usd(5)},
		{name: "env cap, fake disarm", a: Arm{Set: true}, aok: true, env: usd(5), tamper: "sets no cap where the session's environment sets a cap of $5.00", useCap: usd(5)},
		{name: "env cap, user's disarm", a: Arm{Set: true, At: "t2"}, aok: true, w: witness{Arm: Arm{Set: true, At: "t2"}}, wok: true, env: usd(5)},
		{name: "never armed", env: usd(5), useCap: usd(5)},
	} {
		v := judge(c.a, c.aok, c.w, c.wok, c.env)
		if v.Restore != c.restore || v.Rewrite != c.rewrite || (c.tamper == "") != (v.Tamper == "") || !strings.Contains(v.Tamper, c.tamper) {
			t.Errorf("%s: %+v", c.name, v)
		}
		if got := guarded(v.Use, c.env); got != c.useCap {
			t.Errorf("%s: decides by %v, want %v", c.name, got, c.useCap)
		}
	}
}

// TestFloorFrom: a tally counting nothing starts from the witness's
// floor; one counting less is an older tally; sums added in another
// order pass.
func TestFloorFrom(t *testing.T) {
	w := witness{Floor: Sum{USD: 0.3, Tokens: 600}}
	fresh := &Tally{Files: map[string]*File{}}
	if cause := fresh.floorFrom(w, true); cause != "" || fresh.Total().USD != 0.3 || len(fresh.Tampered) != 1 {
		t.Errorf("fresh: %q %+v %v", cause, fresh.Total(), fresh.Tampered)
	}
	older := &Tally{Files: map[string]*File{"a": {Days: map[string]Sum{"d": {USD: 0.1, Tokens: 200}}}}}
	if cause := older.floorFrom(w, true); !strings.Contains(cause, "older tally") {
		t.Errorf("older: %q", cause)
	}
	same := &Tally{Files: map[string]*File{"a": {Days: map[string]Sum{"d": {USD: 0.1, Tokens: 300}, "e": {USD: 0.2, Tokens: 300}}}}}
	if cause := same.floorFrom(w, true); cause != "" {
		t.Errorf("the same spend, summed: %q", cause)
	}
	if cause := older.floorFrom(w, false); cause != "" {
		t.Errorf("no witness: %q", cause)
	}
}

// TestWitnessRestores: an armed session whose state root is removed is
// still armed at the next call, and a witness removed is written again.
func TestWitnessRestores(t *testing.T) {
	root, tr := project(t, 0.5)
	tg := Target{Root: root, ID: "sess", Transcript: tr, Getenv: env{}.get, Now: now}
	if err := ArmCap(tg, mustAmount(t, "$1")); err != nil {
		t.Fatal(err)
	}
	appendTo(t, tr, response("m9", 2, false))
	os.RemoveAll(StateRoot(env{}.get))
	if a := decide(t, call(root, tr, PreToolUse, env{}, "Bash", bashLs)); a.Stop == "" {
		t.Errorf("over the cap with the state removed: %+v", a)
	}
	wfile := filepath.Join(witnessDir(env{}.get, fdir(root)), "sess"+WitnessSuffix)
	if err := os.Remove(wfile); err != nil {
		t.Fatal(err)
	}
	decide(t, call(root, tr, PreToolUse, env{}, "Bash", bashLs))
	if _, err := os.Stat(wfile); err != nil {
		t.Errorf("the witness was not written again: %v", err)
	}
	if err := Disarm(tg); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(StateRoot(env{}.get))
	if a := decide(t, call(root, tr, PreToolUse, env{}, "Bash", bashLs)); a != (Answer{}) {
		t.Errorf("disarmed by the user, then removed: %+v", a)
	}
}

// TestSuffixesAgree: the guard selects the fuse's files by the suffixes
// the fuse names them with.
func TestSuffixesAgree(t *testing.T) {
	want := []string{ArmSuffix, SpendSuffix, HaltsSuffix, WitnessSuffix}
	if strings.Join(guard.StateSuffixes, " ") != strings.Join(want, " ") {
		t.Errorf("guard.StateSuffixes = %v, the fuse's = %v", guard.StateSuffixes, want)
	}
}
