package report_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/report"
)

// chromium finds a headless browser, or skips: CI (CI=true) installs one
// and must not skip.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH, and CI=true: .ci/run installs it")
	}
	t.Skip("no chromium on PATH (apt-get install chromium)")
	return ""
}

// TestChromiumOpensTheReport opens the report in headless Chromium: the
// page renders to a screenshot without error, and the DOM the browser
// built holds one chart per plotted session and the peaks chart.
// REPORT_SCREENSHOT=path keeps the screenshot for a person to look at.
func TestChromiumOpensTheReport(t *testing.T) {
	browser := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	if err := report.Render(&b, sampleReplay(t)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "report.png")
	if p := os.Getenv("REPORT_SCREENSHOT"); p != "" {
		shot = p
	}
	run := func(args ...string) (stdout string) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		profile := t.TempDir()
		base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir=" + profile}
		cmd := exec.CommandContext(ctx, browser, append(append(base, args...), "file://"+page)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
		}
		return out.String()
	}
	run("--screenshot="+shot, "--window-size=1280,3000")
	png, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 10_000 {
		t.Errorf("the screenshot is not a PNG of a drawn page (%d bytes)", len(png))
	}
	dom := run("--dump-dom")
	if got := len(sessionSVG.FindAllString(dom, -1)); got != plotted {
		t.Errorf("the browser's DOM holds %d session charts, want %d", got, plotted)
	}
	if !strings.Contains(dom, `<figure class="peaks">`) || strings.Count(dom, "<svg ") != plotted+1 {
		t.Errorf("the browser's DOM holds %d svg elements, want %d", strings.Count(dom, "<svg "), plotted+1)
	}
}
