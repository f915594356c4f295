package ledger

import (
	"errors"
	"strings"
	"testing"
)

// TestTeamFields: the author and the notices, with their verdicts, read
// back; out of range they are refused by Parse and dropped by Sanitize,
// the rest of the row kept.
func TestTeamFields(t *testing.T) {
	r := rowOf("s1", "/go", 50000, 0.2)
	plain, _ := Marshal(r)
	if strings.Contains(string(plain), `"notices"`) || strings.Contains(string(plain), `"author"`) {
		t.Errorf("a row with neither names them:\n%s", plain)
	}
	r.Author = "ada@example.com"
	r.Notices = []Notice{{Level: LevelPause, At: "2026-12-01T10:00:00Z", Reading: 306_000, Warn: 250_000, Pause: 305_000,
		Verdict: &Verdict{Choice: "relay", Against: "compact", NetUSD: -0.4, Policy: "relay"}}}
	data, _ := Marshal(r)
	got, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Author != r.Author || len(got.Notices) != 1 || *got.Notices[0].Verdict != *r.Notices[0].Verdict {
		t.Errorf("read %q %+v", got.Author, got.Notices)
	}
	for _, bad := range []string{
		`{"sessionId":"a","notices":[{"level":"warn","reading":-1}]}`,
		`{"sessionId":"a","notices":[{"level":"warn","verdict":{"choice":"relay","netUsd":-1e308}}]}`,
		`{"sessionId":"a","notices":[{"level":"` + strings.Repeat("w", MaxNoticeText+1) + `"}]}`,
		`{"sessionId":"a","author":"` + strings.Repeat("a", MaxAuthor+1) + `"}`,
	} {
		if _, err := Parse([]byte(bad)); !errors.Is(err, ErrRange) {
			t.Errorf("Parse(%.70s…) = %v, want ErrRange", bad, err)
		}
	}
	r.Notices = append(r.Notices, Notice{Level: LevelWarn, Reading: -5})
	r.Author = strings.Repeat("a", MaxAuthor+1)
	if !r.Sanitize() || len(r.Notices) != 1 || r.Author != "" || r.Check() != nil {
		t.Errorf("Sanitize: %d notices, author %q, check %v", len(r.Notices), r.Author, r.Check())
	}
}

// TestBy: the keys a row is totalled by, and the groups' order.
func TestBy(t *testing.T) {
	rows := []Row{
		{SessionID: "a", Author: "ada@x", Operator: "ada", Branch: "main", FirstResponseAt: "2027-01-03T23:00:00Z", Total: Tally{CostUSD: 1}},
		{SessionID: "b", Operator: "bo", Branch: "main", FirstResponseAt: "2027-01-04T00:00:00+01:00", Total: Tally{CostUSD: 3}},
		{SessionID: "c", Chain: "c1", FirstResponseAt: "not a time", Total: Tally{CostUSD: 2}},
	}
	for _, tc := range []struct{ by, want string }{
		{ByOperator, "bo ada@x -"},
		{ByBranch, "main -"},
		// Sunday 2027-01-03 closes 2026-W53; 2027-01-04 00:00 at +01:00 is
		// still the Sunday in UTC.
		{ByWeek, "2026-W53 -"},
		{ByChain, "c1 -"},
	} {
		groups, err := By(rows, tc.by)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, g := range groups {
			keys = append(keys, cmpDash(g.Key))
		}
		if got := strings.Join(keys, " "); got != tc.want {
			t.Errorf("by %s: %s, want %s", tc.by, got, tc.want)
		}
		if s := Sum(groups); s.Sessions != 3 || s.CostUSD != 6 {
			t.Errorf("by %s: sum %+v", tc.by, s)
		}
	}
	if _, err := By(rows, "month"); err == nil {
		t.Error("by month: no error")
	}
}

func cmpDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
