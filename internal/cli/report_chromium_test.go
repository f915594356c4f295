package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/report"
	"github.com/muthur/context-budget/ledger"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// chromium finds a headless browser, or skips saying how to get one: the
// tests install nothing. CI (CI=true) installs one (.ci/run) and must not
// skip.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const get = "no Chromium on PATH; install one (Debian and Ubuntu: apt-get install chromium) to run the report's browser test"
	if os.Getenv("CI") == "true" {
		t.Fatal(get + ", which CI=true requires (.ci/run installs it)")
	}
	t.Skip(get)
	return ""
}

// reportHistory lays out a history as Claude Code files it: under
// projects/, the shared transcripts in one project, the corpus split
// between two, and a relay chain of two sessions whose project's ledger
// rows name the chain. Each transcript names its project's folder as its
// cwd (/home/you/shop for -home-you-shop), as a real one does.
func reportHistory(t *testing.T) string {
	t.Helper()
	shared, corpus := sharedtest.DirOrSkip(t), sharedtest.CorpusOrSkip(t)
	projects := filepath.Join(t.TempDir(), "projects")
	cwd := regexp.MustCompile(`"cwd":"[^"]*"`)
	// Copies, not links: replay takes only regular files, as Claude Code
	// writes them.
	link := func(project, path string) {
		dir := filepath.Join(projects, project)
		os.MkdirAll(dir, 0o755)
		data, err := os.ReadFile(path)
		data = cwd.ReplaceAll(data, []byte(`"cwd":"`+strings.ReplaceAll(project, "-", "/")+`"`))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, filepath.Base(path)), data, 0o644)
		}
		if sub := strings.TrimSuffix(path, ".jsonl"); err == nil && dirExists(sub) {
			err = os.CopyFS(filepath.Join(dir, filepath.Base(sub)), os.DirFS(sub))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	paths, _ := filepath.Glob(filepath.Join(shared, "*.jsonl"))
	for _, p := range paths {
		link("-home-you-shop", p)
	}
	paths, _ = filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	for _, p := range paths {
		link([]string{"-repo-cli", "-repo-cli", "-repo-site", "-repo-site", "-repo-site"}[corpusFold(p)], p)
	}
	root := filepath.Join(t.TempDir(), "chain")
	dir := filepath.Join(projects, "-home-you-chain")
	os.MkdirAll(dir, 0o755)
	for place, id := range []string{"c0000001-aaaa", "c0000002-bbbb"} {
		var b strings.Builder
		for i := range 30 {
			fmt.Fprintf(&b, `{"type":"assistant","sessionId":%q,"cwd":%q,"timestamp":"2026-03-0%dT10:%02d:00Z","message":{"id":"m%d","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t%d","name":"Bash"}],"usage":{"input_tokens":3,"cache_read_input_tokens":%d,"cache_creation_input_tokens":2000,"output_tokens":100}}}`+"\n",
				id, root, place+1, i, i, i, 30_000+i*5_000)
		}
		if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		row := ledger.Row{SessionID: id, FirstResponseAt: fmt.Sprintf("2026-03-0%dT10:00:00Z", place+1), Chain: "run-2026-03-01", Place: place + 1}
		if _, err := ledger.Write(root, &row); err != nil {
			t.Fatal(err)
		}
	}
	return projects
}

// measureScript, added to the page under test, measures it as laid out
// and writes the figures into the page as JSON (<pre id="measure">),
// which --dump-dom then prints: the window's width and, for each chart,
// its SVG's viewBox, its key's box in the viewBox's units (getBBox), its
// place on the page, and each key sample's place (its drawing across the
// sample's 10 units of height) and name.
const measureScript = `<script>
(function () {
  var out = {width: window.innerWidth, charts: []};
  document.querySelectorAll("svg.chart").forEach(function (svg) {
    var vb = svg.viewBox.baseVal, key = svg.querySelector("g.key"), box = key.getBBox(), r = svg.getBoundingClientRect();
    var samples = [];
    key.querySelectorAll("g.k").forEach(function (k) {
      var b = k.querySelector(".sample").getBBox(), m = k.getScreenCTM();
      var p0 = new DOMPoint(b.x, 0).matrixTransform(m), p1 = new DOMPoint(b.x + b.width, 10).matrixTransform(m);
      samples.push({name: k.textContent, x: p0.x + window.scrollX, y: p0.y + window.scrollY, w: p1.x - p0.x, h: p1.y - p0.y});
    });
    out.charts.push({viewBox: [vb.x, vb.y, vb.width, vb.height], key: [box.x, box.y, box.width, box.height],
      left: r.left, right: r.right, samples: samples});
  });
  var pre = document.createElement("pre");
  pre.id = "measure";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>`

// measured is what measureScript writes.
type measured struct {
	Width  float64 `json:"width"`
	Charts []struct {
		ViewBox     [4]float64 `json:"viewBox"`
		Key         [4]float64 `json:"key"`
		Left, Right float64
		Samples     []struct {
			Name       string
			X, Y, W, H float64
		}
	}
}

// laptopWidths are the windows the report must read at: the key of
// every chart whole, the charts within the window.
var laptopWidths = []int{1024, 1280}

// TestReportInChromium replays a fixture history (the real shared
// transcripts and the corpus, and a relay chain), renders the report as
// replay --html does, and opens it in headless Chromium: the headline's
// figures are replay --json's, the projects come most costly first with
// each session under its own project, the entries of a project most
// costly first, the chain is one entry; at 1024 and 1280 pixels every
// chart lies within the window and its key within the chart's viewBox,
// and the key's styles are told apart on the screenshot.
// REPORT_SCREENSHOTS=folder keeps the screenshots (report-1024.png,
// report-1280.png).
func TestReportInChromium(t *testing.T) {
	browser := chromium(t)
	projects := reportHistory(t)
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"replay", "--json", "--readings", "--no-settings", "--no-history", projects}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("replay: %d %s", code, stderr.String())
	}
	var rep replay.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "report.html")
	var b bytes.Buffer
	if err := report.Render(&b, rep); err != nil {
		t.Fatal(err)
	}
	measuring := strings.Replace(b.String(), "</body>", measureScript+"\n</body>", 1)
	os.WriteFile(page, []byte(measuring), 0o644)
	shots := t.TempDir()
	if dir := os.Getenv("REPORT_SCREENSHOTS"); dir != "" {
		shots = dir
	}
	run := func(args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
			"--disable-sync", "--no-first-run", "--hide-scrollbars", "--force-device-scale-factor=1", "--user-data-dir=" + t.TempDir()}
		cmd := exec.CommandContext(ctx, browser, append(append(base, args...), "file://"+page)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
		}
		return out.String()
	}
	var dom string
	for _, width := range laptopWidths {
		size := fmt.Sprintf("--window-size=%d,2400", width)
		shot := filepath.Join(shots, fmt.Sprintf("report-%d.png", width))
		run("--screenshot="+shot, size)
		dom = run("--dump-dom", size)
		checkLayout(t, width, dom, shot)
	}

	// The headline's figures are the JSON's.
	tot := rep.Totals
	for id, want := range map[string][]string{
		"answer-cost":     {fmt.Sprint(tot.PricedSessions), notice.USD(tot.CostUSD)},
		"answer-forecast": {fmt.Sprint(tot.ForecastPauses), notice.NetSavedWords(tot.ForecastSavingUSD)},
		"answer-checked":  {fmt.Sprint(tot.CarryOnPoints), notice.SavedWords(tot.CheckedSavingUSD)},
	} {
		m := regexp.MustCompile(`<p class="answer" id="` + id + `">.*?<span class="n">([^<]*)</span>.*?<strong class="usd">([^<]*)</strong>`).FindStringSubmatch(dom)
		if m == nil || m[1] != want[0] || m[2] != want[1] {
			t.Errorf("%s: %q, want %q", id, m, want)
		}
	}
	if tot.ForecastPauses < 50 || tot.PricedSessions < 150 {
		t.Errorf("the fixture proves little: %d priced sessions, %d priced pauses", tot.PricedSessions, tot.ForecastPauses)
	}

	// Projects most costly first; every session under its own project.
	cost := map[string]float64{}
	projectOf := map[string]string{}
	for _, s := range rep.Sessions {
		if s.Responses == 0 {
			continue
		}
		projectOf[s.SessionID] = s.Project
		if s.CostUSD != nil {
			cost[s.Project] += *s.CostUSD
			cost[s.SessionID] = *s.CostUSD
		}
	}
	var order []string
	current := ""
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`data-project="([^"]+)"|data-session="([^"]+)"`).FindAllStringSubmatch(dom, -1) {
		if m[1] != "" {
			current = m[1]
			order = append(order, current)
			continue
		}
		if projectOf[m[2]] != current {
			t.Errorf("session %s of %s is shown under %s", m[2], projectOf[m[2]], current)
		}
		seen[m[2]] = true
	}
	if len(seen) != len(projectOf) {
		t.Errorf("the page shows %d sessions, the replay has %d", len(seen), len(projectOf))
	}
	if !slices.IsSortedFunc(order, func(a, b string) int { return -compareFloat(cost[a], cost[b]) }) || len(order) != 4 {
		t.Errorf("projects %v are not the four, most costly first (%v)", order, cost)
	}
	// Within a project: the charted entries, then the listed ones, each
	// most costly first (an entry's cost is its sessions').
	for _, sec := range strings.Split(dom, `<section class="project"`)[1:] {
		for _, part := range []string{`(?s)<section class="entry".*?</section>`, `(?s)<tr><td>.*?</tr>`} {
			var costs []float64
			for _, e := range regexp.MustCompile(part).FindAllString(sec, -1) {
				c := 0.0
				for _, m := range regexp.MustCompile(`data-session="([^"]+)"`).FindAllStringSubmatch(e, -1) {
					c += cost[m[1]]
				}
				costs = append(costs, c)
			}
			if !slices.IsSortedFunc(costs, func(a, b float64) int { return -compareFloat(a, b) }) {
				t.Errorf("entries not most costly first: %v", costs)
			}
		}
	}
	if !strings.Contains(dom, "<h3>chain run-2026: 2 sessions</h3>") {
		t.Error("the relay chain is not one entry")
	}
	if n := strings.Count(dom, `<figure class="chart"><svg class="chart"`); n < 4 || n > report.MaxCharts {
		t.Errorf("%d charts; the first few of each project, at most %d", n, report.MaxCharts)
	}
}

// checkLayout checks the page as Chromium laid it out in a window width
// pixels wide (dom, with measureScript's figures) and drew it (shot):
// every chart within the window, its key inside its viewBox, and the
// first chart's key samples drawn and told apart by colour or pattern.
func checkLayout(t *testing.T, width int, dom, shot string) {
	t.Helper()
	m := regexp.MustCompile(`<pre id="measure">([^<]*)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("%d px: the page was not measured", width)
	}
	var got measured
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &got); err != nil {
		t.Fatalf("%d px: %v", width, err)
	}
	if got.Width != float64(width) || len(got.Charts) == 0 {
		t.Fatalf("%d px: a window %v wide with %d charts", width, got.Width, len(got.Charts))
	}
	for i, c := range got.Charts {
		vb, k := c.ViewBox, c.Key
		if k[2] == 0 || k[0] < vb[0] || k[1] < vb[1] || k[0]+k[2] > vb[0]+vb[2] || k[1]+k[3] > vb[1]+vb[3] {
			t.Errorf("%d px, chart %d: the key's box %v is not inside the viewBox %v", width, i, k, vb)
		}
		if c.Left < 0 || c.Right > got.Width {
			t.Errorf("%d px, chart %d: it spans %.0f to %.0f px, outside the window", width, i, c.Left, c.Right)
		}
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var samples []keySample
	for _, at := range got.Charts[0].Samples {
		r := image.Rect(int(at.X), int(at.Y), int(at.X+at.W+0.5), int(at.Y+at.H+0.5))
		if !r.In(img.Bounds()) {
			t.Fatalf("%d px: key %q at %v is off the screenshot %v", width, at.Name, r, img.Bounds())
		}
		s := readSample(img, r)
		s.name = at.Name
		if s.pattern == "" {
			t.Errorf("%d px: key %q: nothing drawn at its place", width, s.name)
		}
		samples = append(samples, s)
	}
	if len(samples) != 9 {
		t.Fatalf("%d px: %d key entries, want 9", width, len(samples))
	}
	for i := range samples {
		for j := i + 1; j < len(samples); j++ {
			a, c := samples[i], samples[j]
			dist := abs(a.r-c.r) + abs(a.g-c.g) + abs(a.b-c.b)
			if dist < 60 && a.pattern == c.pattern {
				t.Errorf("%d px: key %q and %q look alike: colours %.0f apart, the same pattern %s", width, a.name, c.name, dist, a.pattern)
			}
		}
	}
}

// keySample is what the screenshot shows of one entry of the key.
type keySample struct {
	name    string
	r, g, b float64
	pattern string
}

// readSample reads the key sample drawn in r: the mean colour of its
// drawn pixels and its shape, each column's count of drawn pixels.
func readSample(img image.Image, rect image.Rectangle) (s keySample) {
	n := 0.0
	var shape strings.Builder
	for x := rect.Min.X; x < rect.Max.X; x++ {
		h := 0
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 > 235 && g>>8 > 235 && b>>8 > 235 {
				continue
			}
			h++
			s.r, s.g, s.b = s.r+float64(r>>8), s.g+float64(g>>8), s.b+float64(b>>8)
			n++
		}
		fmt.Fprintf(&shape, "%x", min(h, 15))
	}
	if n < 8 {
		return s
	}
	s.r, s.g, s.b, s.pattern = s.r/n, s.g/n, s.b/n, shape.String()
	return s
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
