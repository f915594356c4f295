package override

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

// spellings of a price table, each as deep as the check lets through.
var spellings = []string{
	"[[model]]\nid = \"m\"\nband_above = 1\n[model.band]\ninput = 1\n",
	"[[model]]\nid = \"m\"\nband = { input = 1, output = 2 }\n",
	"[[model]]\nid = \"m\"\nband.input = 1\n",
	"model = [{ id = \"m\", band = { input = 1 } }]\n",
	"model = [\n  { id = \"m\", band = {\n input = 1,\n } },\n]\n",
	"[[ model ]] # rows\nid = \"[[{{{{\" # }}}}]]\n'quoted.key' = 'a.b.c.d.e'\n",
	"[[model]]\nid = \"\"\"\n{{{{{{\n[[[[[[\n\"\"\"\nnote = '''a.b.c.d.e = {{{{{'''\n",
	"[[model]]\nid = \"\\\"{{{{{\\\"\"\n",
	"[[model]]\nid = \"\"\"a\"\"\"\"\nspeed = ''''b''''\n",
}

// deep are files the check refuses: each nests past MaxDepth.
var deep = []string{
	"a = {b = {c = {d = {e = 1}}}}\n",
	"a.b.c.d.e = 1\n",
	"[a.b.c.d.e]\n",
	"[[a.b.c]]\nd.e = 1\n",
	"[a.b.c.d]\ne = 1\n",
	"a = [[[[1]]]]\n",
	"a = [{b = [{c = 1}]}]\n",
	"a = {b = \"}\", c = {d = \"}\", e = {f = '}', g = {h = \"\"\"}\"\"\", i = 1}}}}\n",
	"a = {b = 1, c = {d = 1, e = {f = 1, g = {h = 1}}}}\n",
	"\"a.b\".c.d.e.f = 1\n",
	"a = { b.c.d.e = 1 }\n",
}

func TestCheckNesting(t *testing.T) {
	shipped, err := os.ReadFile(filepath.Join("..", "prices.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range append(spellings, string(shipped)) {
		if err := checkNesting([]byte(src)); err != nil {
			t.Errorf("refused %q: %v", src, err)
		}
		var v any
		if _, err := toml.Decode(src, &v); err != nil {
			t.Errorf("not TOML, so not a spelling to test: %q: %v", src, err)
		}
	}
	for _, src := range deep {
		if err := checkNesting([]byte(src)); err == nil || !strings.Contains(err.Error(), "line 1") && !strings.Contains(err.Error(), "line 2") {
			t.Errorf("let through %q (err %v)", src, err)
		}
	}
}

// blowUps are files the TOML library takes time and memory for in the
// square of their depth.
func blowUps(n int) map[string]string {
	return map[string]string{
		"nested inline tables": "a = " + strings.Repeat("{b = ", n) + "1" + strings.Repeat("}", n) + "\n",
		"a dotted key":         strings.Repeat("a.", n) + "b = 1\n",
		"a table header":       "[" + strings.Repeat("a.", n) + "b]\n",
	}
}

// cost is the time and the bytes allocated by f.
func cost(f func()) (time.Duration, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return d, after.TotalAlloc - before.TotalAlloc
}

// TestGuardStopsBlowUp: BurntSushi/toml v1.6.0 takes 1.2 s and 409 MiB
// on 3,000 nested inline tables (15 KB), 5.5 GiB on 12,000, and dotted
// keys cost it the same way; under 64 KiB the guard refuses each such
// file before the library sees it, in well under a millisecond's worth of
// allocation. The unguarded cost at a depth of 1,000 is logged beside it.
func TestGuardStopsBlowUp(t *testing.T) {
	for _, n := range []int{3000, 12000} {
		for what, src := range blowUps(n) {
			if len(src) > MaxSize {
				src = src[:MaxSize]
			}
			var err error
			_, alloc := cost(func() { _, _, err = Decode([]byte(src), "prices.toml") })
			if err == nil || !strings.Contains(err.Error(), "nested deeper") {
				t.Errorf("%s of %d: err = %v", what, n, err)
			}
			if alloc > 1<<20 {
				t.Errorf("%s of %d (%d bytes): refused with %d bytes allocated", what, n, len(src), alloc)
			}
		}
	}
	if testing.Short() {
		return
	}
	for what, src := range blowUps(1000) {
		var v any
		d, alloc := cost(func() { toml.Decode(src, &v) })
		t.Logf("unguarded, %s of 1,000 (%d bytes): %v, %.0f MiB allocated", what, len(src), d, float64(alloc)/(1<<20))
	}
}

// TestGuardedWorstCase: the dearest files the guard lets through, 64 KiB
// at the greatest depth, cost the library little.
func TestGuardedWorstCase(t *testing.T) {
	fill := func(line func(i int) string) string {
		var b strings.Builder
		for i := 0; b.Len() < MaxSize-100; i++ {
			b.WriteString(line(i))
		}
		return b.String()
	}
	for what, src := range map[string]string{
		"inline tables":    fill(func(i int) string { return "k" + strconv.Itoa(i) + " = [{b = {c = 1}}]\n" }),
		"rows":             fill(func(i int) string { return "[[model]]\nid = \"m" + strconv.Itoa(i) + "\"\nband = {input = 1}\n" }),
		"tables":           fill(func(i int) string { return "[a" + strconv.Itoa(i) + ".b.c]\nd = 1\n" }),
		"arrays of tables": fill(func(int) string { return "[[a.b.c.d]]\n" }),
		"one long key":     "a.b.c.d = {}\n" + strings.Repeat("x", MaxSize-50) + " = 1\n",
	} {
		if err := checkNesting([]byte(src)); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		d, alloc := cost(func() { Decode([]byte(src), "prices.toml") })
		if alloc > 64<<20 {
			t.Errorf("%s (%d bytes): %d bytes allocated", what, len(src), alloc)
		}
		t.Logf("%s (%d bytes): %v, %.1f MiB allocated", what, len(src), d, float64(alloc)/(1<<20))
	}
}
