package report_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/report"
	"github.com/muthur/context-budget/tools/gen"
)

var caps = lines.Lines{
	Warn:  lines.Line{Tokens: 300_000, SetBy: lines.Cap},
	Pause: lines.Line{Tokens: 400_000, SetBy: lines.Cap},
}

// sampleReplay replays generated sessions: three that climb (one past
// both lines, one with a compaction, one long enough to be bucketed), one
// with a single response and one empty file.
func sampleReplay(t testing.TB) replay.Report {
	dir := t.TempDir()
	long := gen.Climb(10_000, 150, 2500)
	compacted := gen.Climb(100_000, 12_000, 40)
	compacted[25].Before = "compact"
	for i := 25; i < 40; i++ {
		compacted[i].Reading = 30_000 + int64(i-25)*25_000
	}
	sessions := []gen.Script{
		{ID: "a1", Responses: gen.Climb(20_000, 11_000, 40), Seed: 1},
		{ID: "b2", Responses: compacted, Seed: 2},
		{ID: "c3", Responses: long, Seed: 3},
		{ID: "d4", Responses: gen.Climb(25_000, 0, 1), Seed: 4},
	}
	for _, s := range sessions {
		var b bytes.Buffer
		if err := gen.WriteScript(&b, s); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, s.ID+".jsonl"), b.Bytes(), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "empty.jsonl"), nil, 0o644)
	sources, err := replay.Discover([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	rep := replay.Run(sources, replay.Options{Series: true,
		NewModel: func(string) replay.Model { return replay.FixedModel(caps) }})
	rep.Lines = caps
	return rep
}

// plotted is how many sessions of sampleReplay have a chart: all but the
// empty file and d4, whose one response is listed, not charted.
const plotted = 3

var sessionSVG = regexp.MustCompile(`(?s)<section class="entry">.*?<svg .*?</svg>.*?</section>`)

func TestRender(t *testing.T) {
	rep := sampleReplay(t)
	var b bytes.Buffer
	if err := report.Render(&b, rep); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if got := len(sessionSVG.FindAllString(page, -1)); got != plotted {
		t.Errorf("%d session charts, want %d", got, plotted)
	}
	if !strings.Contains(page, `data-session="d4"`) || !strings.Contains(page, `<details class="more">`) {
		t.Error("the one-response session is not listed")
	}
	// Self-contained: nothing to fetch.
	for _, bad := range []string{"<script", "<link", "<img", "src=", "url(", "@import", "href=\"http"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q: it must load nothing", bad)
		}
	}
}

func TestCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := report.Command(nil, strings.NewReader("not json"), &stdout, &stderr); code != 1 ||
		!strings.HasPrefix(stderr.String(), "context-budget-report: error: ") {
		t.Errorf("bad input: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	if code := report.Command([]string{"a", "b"}, nil, &stdout, &stderr); code != 2 {
		t.Errorf("two inputs: exit %d, want 2", code)
	}
	out := filepath.Join(t.TempDir(), "r.html")
	in := strings.NewReader(`{"sessions":[],"totals":{"sessions":0},"lines":{"warn":{"tokens":300000,"set_by":"cap"},"pause":{"tokens":400000,"set_by":"cap"}}}`)
	if code := report.Command([]string{"-o", out}, in, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(data, []byte("<h1>What these sessions cost")) {
		t.Errorf("page: %v, %.200s", err, data)
	}
}
