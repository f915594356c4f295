package settings

import (
	"errors"
	"testing"
)

// FuzzCheckHooks: whatever settings parse, a file CheckHooks accepts is
// one Install can register into (or refuses only for a foreign status
// line), and what Install writes is still well shaped, with our hooks
// found in it; one it refuses Install leaves alone.
func FuzzCheckHooks(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"hooks":{"PostToolUse":["x"]}}`, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":3}]}]}}`,
		`{"hooks":{"PostToolUse":[{"matcher":"Edit","hooks":[{"type":"prompt","prompt":"p"}]}]},"statusLine":{"type":"command","command":"s"}}`,
		`{"hooks":{"Stop":[{"hooks":[{"type":"command"}]}]}}`, `{"hooks":{"Stop":[{"matcher":1,"hooks":[]}]}}`,
		`{"hooks":[]}`, `{"hooks":{"X":{}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := Parse(data)
		if err != nil {
			return
		}
		before := string(Encode(o))
		_, ierr := Install(o, "/x/context-budget", Roles)
		if CheckHooks(o) != nil && ierr == nil {
			t.Fatalf("Install wrote hooks CheckHooks refuses:\n%s", Encode(o))
		}
		if ierr != nil {
			var se *ShapeError
			if errors.As(ierr, &se) && string(Encode(o)) != before {
				t.Fatalf("a refused Install changed the settings: %v", ierr)
			}
			if se == nil && ierr != ErrForeignStatusLine {
				t.Fatalf("Install: %v", ierr)
			}
			return
		}
		entries, err := Registered(o)
		if err != nil || len(entries) < 2 {
			t.Fatalf("after Install: %d of ours, %v\n%s", len(entries), err, Encode(o))
		}
	})
}
