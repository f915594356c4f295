package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/report"
	"github.com/muthur/context-budget/ledger"
)

// TestTeamSection: the team's ledger gets a section of its own, a table
// per key with its totals; a replay with no rows gets none.
func TestTeamSection(t *testing.T) {
	rep := sampleReplay(t)
	var b bytes.Buffer
	if err := report.Render(&b, rep); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `id="team"`) {
		t.Error("a section for no rows")
	}
	rows := []ledger.Row{
		{SessionID: "a", Author: "ada@example.com", Branch: "main", FirstResponseAt: "2026-12-01T09:00:00Z", Total: ledger.Tally{CostUSD: 5},
			Notices: []ledger.Notice{{Level: "pause", Verdict: &ledger.Verdict{Choice: "relay", NetUSD: 0.8}}}},
		{SessionID: "b", Author: "bo@example.com", Branch: "feat/<x>", OpeningPrompt: "/relay take main", FirstResponseAt: "2026-12-08T09:00:00Z", Total: ledger.Tally{CostUSD: 2}},
	}
	for _, by := range ledger.ByKeys {
		tb, err := ledger.TableBy(rows, by)
		if err != nil {
			t.Fatal(err)
		}
		rep.Team = append(rep.Team, tb)
	}
	b.Reset()
	if err := report.Render(&b, rep); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	section := regexp.MustCompile(`(?s)<section class="team" id="team">.*?</section>`).FindString(page)
	if section == "" {
		t.Fatal("no team section")
	}
	for _, want := range []string{
		`<details class="team-by" data-by="operator" open>`,
		`<tr><td>ada@example.com</td><td>1</td><td>$5.00</td><td>0</td><td>1</td><td>$0.80</td></tr>`,
		`<tr><td>feat/&lt;x&gt;</td><td>1</td><td>$2.00</td><td>1</td><td>0</td><td>$0.00</td></tr>`,
		`<tr><td>2026-W49</td>`, `<tr><td>2026-W50</td>`,
		`<details class="team-by" data-by="chain"><summary>`,
		`<tr class="total"><td>total</td><td>2</td><td>$7.00</td><td>1</td><td>1</td><td>$0.80</td></tr>`,
	} {
		if !strings.Contains(section, want) {
			t.Errorf("the section lacks %s:\n%s", want, section)
		}
	}
}
