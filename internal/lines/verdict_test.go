package lines

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
)

// TestVerdict: where the window's compaction point lies within the slice
// the verdict weighs relaying against letting Claude Code compact, priced
// by restart.Model.Compact; elsewhere against carrying on, where its net
// is the cost model's saving. Under relay the choice is always relay;
// under cheapest it follows the sign of the net.
func TestVerdict(t *testing.T) {
	k := forecast.Shipped.Compaction
	// 130k on the default 200k window, which a transcript naming no
	// version compacts at ~155k; the successor's estimate (100k tokens)
	// makes compacting the cheaper way on.
	for _, policy := range []string{tuning.PreferRelay, tuning.PreferCheapest} {
		d := decide(t, map[string]string{tuning.EnvPrefer: policy}, "claude-opus-4-6", 130_000)
		v := d.Verdict(130_000)
		m := d.At(130_000)
		compact, ok := m.Compact(130_000, d.Window.CompactsAt, k)
		if !ok || v.Against != ChoiceCompact || !near(v.NetUSD, compact-m.RelayOverSlice(130_000)) || v.Policy != policy {
			t.Fatalf("%s on 200k: %+v; want against compact at %v (point %d)", policy, v, compact-m.RelayOverSlice(130_000), d.Window.CompactsAt)
		}
		if v.NetUSD >= 0 {
			t.Fatalf("%s on 200k: relaying nets %v against compacting; the case wants compacting cheaper", policy, v.NetUSD)
		}
		want := map[string]string{tuning.PreferRelay: ChoiceRelay, tuning.PreferCheapest: ChoiceCompact}[policy]
		if v.Choice != want || v.Relays() != (want == ChoiceRelay) {
			t.Errorf("%s on 200k: choice %q, want %q", policy, v.Choice, want)
		}
		if mo := d.Money(130_000); mo.Verdict != v || !mo.Compacts || !near(mo.CompactUSD, compact) {
			t.Errorf("%s: Money's verdict %+v, want %+v", policy, mo.Verdict, v)
		}
	}
	// The pinned example on its 1M window: the point lies past the slice,
	// the alternative is carrying on, the net is the worked example's
	// saving (n − 1)·r·C − n·r·W − O − R, and relaying saves there under
	// either policy.
	W, R := priorReorientation()
	const n, r, O = 40.0, 0.5e-6, 0.20
	saving := (n-1)*r*210_000 - n*r*W - O - R
	for _, policy := range []string{tuning.PreferRelay, tuning.PreferCheapest} {
		d := decide(t, map[string]string{tuning.EnvPrefer: policy}, "claude-opus-4-6", 210_000)
		v := d.Verdict(210_000)
		if v.Against != ChoiceCarryOn || math.Abs(v.NetUSD-saving) > 1e-6 || v.NetUSD <= 0 || v.Choice != ChoiceRelay {
			t.Errorf("%s on 1M: %+v, want relay against carrying on at %v", policy, v, saving)
		}
		// Early in the climb relaying does not pay: under cheapest the
		// choice is to carry on.
		if v := d.Verdict(60_000); v.NetUSD >= 0 || v.Choice != map[string]string{tuning.PreferRelay: ChoiceRelay, tuning.PreferCheapest: ChoiceCarryOn}[policy] {
			t.Errorf("%s on 1M at 60k: %+v", policy, v)
		}
	}
	// A decision from an older cache, with no policy, relays.
	if v := (&Decision{Priced: true, Cost: restart.Model{Rates: restart.PerMillion(25, 0.5, 6.25), Q: 0.0004}}).Verdict(60_000); v.Policy != tuning.PreferRelay || v.Choice != ChoiceRelay {
		t.Errorf("no policy: %+v", v)
	}
}

// TestLinesOnNet: a priced line is the first context where relaying's
// net saving against the real alternative reaches its threshold. Below
// the point's reach (100k before it) that is the cost model's closed
// form; within it, the first thousand from the reach's start where Net
// reaches it; where Net never does, no line.
func TestLinesOnNet(t *testing.T) {
	rt := restart.PerMillion(25, 0.5, 6.25)
	win := window.Window{Tokens: window.Standard, CompactsAt: 167_000, PauseRoom: 28_000}
	reach := win.CompactsAt - restart.Slice
	for _, tc := range []struct {
		name string
		m    restart.Model
		// where the line falls: "below" the reach (the closed form),
		// "within" it, or "none".
		where string
	}{
		{"a busy session with a small successor", restart.Model{Rates: rt, Q: 0.0012, W: 20_000, R: 0.2}, "below"},
		{"a small successor", restart.Model{Rates: rt, Q: 0.0004, W: 20_000, R: 0.2}, "within"},
		{"a successor as large as the session", restart.Model{Rates: rt, Q: 0.0004, W: 100_000, R: 0.9}, "none"},
	} {
		d := Decision{Cost: tc.m, Window: win}
		c, ok := d.line(0.80, 0)
		closed, _ := tc.m.Line(0.80)
		switch tc.where {
		case "below":
			if !ok || c != closed || c > reach {
				t.Errorf("%s: line %d %v, want the closed form %d below the reach %d", tc.name, c, ok, closed, reach)
			}
		case "within":
			if !ok || c <= reach || d.Net(c) < 0.80 || (c-lineStep > reach && d.Net(c-lineStep) >= 0.80) {
				t.Errorf("%s: line %d %v (net %v), want the first thousand in the reach from %d where the net reaches $0.80", tc.name, c, ok, d.Net(c), reach)
			}
			if closed <= reach {
				t.Errorf("%s: the closed form %d lies below the reach; the case proves nothing", tc.name, closed)
			}
		case "none":
			if ok {
				t.Errorf("%s: line %d (net %v); relaying never saves $0.80 against compacting", tc.name, c, d.Net(c))
			}
		}
		// A floor moves the search, never below it.
		if c, ok := d.line(0.80, 150_000); ok && (c < 150_000 || d.Net(c) < 0.80) {
			t.Errorf("%s: from 150k, line %d (net %v)", tc.name, c, d.Net(c))
		}
	}
	// On a 1M window the point lies past every line's slice: the closed
	// form.
	m := restart.Model{Rates: rt, Q: 0.0004, W: 100_000, R: 0.9}
	d := Decision{Cost: m, Window: window.Window{Tokens: window.OneM, CompactsAt: 967_000}}
	want, _ := m.Line(0.80)
	if c, ok := d.line(0.80, 0); !ok || c != want {
		t.Errorf("1M: line %d, want %d", c, want)
	}
}

// TestInputBuiltOnce: outside this package's input.go no program code
// spells a lines.Input literal, so that the hook, the status line,
// `lines`, doctor, run and replay cannot decide from inputs built apart.
func TestInputBuiltOnce(t *testing.T) {
	root := filepath.Join("..", "..")
	var found []string
	for _, dir := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
				filepath.ToSlash(path) == "../../internal/lines/input.go" {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, src, 0)
			if err != nil {
				return err
			}
			inLines := f.Name.Name == "lines"
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				switch ty := lit.Type.(type) {
				case *ast.SelectorExpr:
					if x, ok := ty.X.(*ast.Ident); ok && x.Name == "lines" && ty.Sel.Name == "Input" {
						found = append(found, path)
					}
				case *ast.Ident:
					if inLines && ty.Name == "Input" {
						found = append(found, path)
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(found) > 0 {
		t.Errorf("the decision's input is built outside lines.Call.Input in %v", found)
	}
}
