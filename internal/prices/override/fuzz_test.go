package override

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/BurntSushi/toml"
)

// depth is how deep a value the TOML library decoded nests: a key or an
// array element one level below what holds it.
func depth(x any) int {
	d := 0
	switch x := x.(type) {
	case map[string]any:
		for _, y := range x {
			d = max(d, 1+depth(y))
		}
	case []map[string]any:
		for _, y := range x {
			d = max(d, 1+depth(y))
		}
	case []any:
		for _, y := range x {
			d = max(d, 1+depth(y))
		}
	}
	return d
}

// FuzzDecode: Decode never fails loudly, what it returns can price, and
// whatever passes the nesting check the library decodes no deeper than
// the check allows (an array of tables, [[a.b]], may add a level to each
// part of a header, so twice MaxDepth): the check and the library read
// strings, comments and brackets alike.
func FuzzDecode(f *testing.F) {
	shipped, err := os.ReadFile(filepath.Join("..", "prices.toml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(shipped))
	for _, s := range append(spellings, deep...) {
		f.Add(s)
	}
	f.Add(rowText("m", "nan") + "x = 1\n" + rowText("n", "1e6"))
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > MaxSize {
			return
		}
		tab, _, err := Decode([]byte(src), "f")
		if err == nil {
			for _, r := range tab.Rows {
				if err := r.Check(); err != nil {
					t.Fatalf("Decode returned a row that cannot price: %v\n%s", err, src)
				}
			}
		}
		if checkNesting([]byte(src)) != nil {
			return
		}
		var v any
		if _, err := toml.Decode(src, &v); err == nil && depth(v) > 2*MaxDepth {
			t.Fatalf("the check let through a depth of %d:\n%s", depth(v), src)
		}
	})
}
