package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/notice"
)

// TestRunDefaultBudget: run's one default budget is finite and reads the
// same in the flag, help run and the README (the line that starts a
// chain prints the amount the flag gave).
func TestRunDefaultBudget(t *testing.T) {
	usd, err := parseUSD(defaultMaxUSD)
	if err != nil || !(usd > 0) {
		t.Fatalf("the default budget %q reads as %v, %v", defaultMaxUSD, usd, err)
	}
	amount := strings.TrimSuffix(notice.USD(usd), ".00")
	if !strings.Contains(topic("run"), "the whole chain's budget in dollars at API rates ("+amount+";") {
		t.Errorf("help run does not give the default as %s", amount)
	}
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "`--max-usd` (default "+amount+";") {
		t.Errorf("the README does not give the default as %s", amount)
	}
	if v, err := parseUSD("none"); err != nil || v != 0 {
		t.Errorf("--max-usd none: %v, %v", v, err)
	}
}

// TestShownWriter: a session's text reaches the terminal escaped, a
// character split between two writes whole.
func TestShownWriter(t *testing.T) {
	var b strings.Builder
	w := &shownWriter{w: &b}
	text := "é\x1b]52;c;aGk=\x07 line\tone\nnext\r\n"
	for i := range len(text) {
		w.Write([]byte{text[i]})
	}
	w.Flush()
	if got, want := b.String(), "é\\x1b]52;c;aGk=\\x07 line\tone\nnext\\r\n"; got != want {
		t.Errorf("shown %q, want %q", got, want)
	}
}
