package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/report"
)

// TestRenderByModel: the page gives the forecast's error per model, with
// its points.
func TestRenderByModel(t *testing.T) {
	rep := sampleReplay(t)
	rep.Totals.CarryOnByModel = []replay.ModelError{{Model: "claude-opus-4-6", Points: 12, MedianAbsError: 0.183}}
	var b bytes.Buffer
	if err := report.Render(&b, rep); err != nil {
		t.Fatal(err)
	}
	if want := "the forecast on claude-opus-4-6</td><td class=\"by-model\">median absolute error 18% over 12 points"; !strings.Contains(b.String(), want) {
		t.Errorf("the page lacks %q", want)
	}
}
