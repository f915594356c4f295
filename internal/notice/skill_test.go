package notice

import (
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/lines"
)

// TestSkillNames: every skill a notice names carries the prefix of the
// route it was installed by, and none is left bare.
func TestSkillNames(t *testing.T) {
	ls := lines.Lines{Warn: lines.Line{Tokens: 300_000, SetBy: lines.Cap}, Pause: lines.Line{Tokens: 400_000, SetBy: lines.Cap}}
	for _, level := range []climb.Level{climb.Warn, climb.Pause} {
		for _, manual := range []bool{false, true} {
			f := Facts{Level: level, Reading: 410_000, Lines: ls, Manual: manual, SkillPrefix: "context-budget:"}
			text := Text(f)
			if !strings.Contains(text, "/context-budget:relay") || !strings.Contains(text, "/context-budget:go") {
				t.Errorf("level %v manual %v: the plugin's names are missing:\n%s", level, manual, text)
			}
			if strings.Contains(text, " /relay") || strings.Contains(text, " /go ") {
				t.Errorf("level %v manual %v: a bare skill name is left:\n%s", level, manual, text)
			}
			f.SkillPrefix = ""
			if plain := Text(f); !strings.Contains(plain, " /relay") || !strings.Contains(plain, " /go ") {
				t.Errorf("level %v manual %v: the settings route's names are missing:\n%s", level, manual, plain)
			}
		}
	}
}
