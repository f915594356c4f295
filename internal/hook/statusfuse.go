package hook

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/fuse"
)

// fuseMark is the status line's note of an armed spend fuse: what the
// session has spent of its cap and the share of the project's day cap
// spent, " · spend $1.20/$5.00 · day 40%", or "" when no cap is armed
// (an environment look-up and one open, fuse.Standing).
func fuseMark(getenv func(string) string, root, session string, now time.Time) string {
	var b strings.Builder
	for _, c := range fuse.Standing(getenv, root, session, now) {
		if c.Kind == "day" {
			b.WriteString(" · day " + strconv.Itoa(int(math.Round(100*c.Share()))) + "%")
			continue
		}
		b.WriteString(" · spend " + c.Short())
	}
	return b.String()
}
