package guard

import (
	"strings"
	"testing"
)

// TestParse: the shell reader's words, writes and folders.
func TestParse(t *testing.T) {
	e := env{"HOME": "/h"}
	for _, c := range []struct {
		line string
		want []string // each command: its words joined by |, then >target
	}{
		{"a b; c && d || e | f", []string{"a|b", "c", "d", "e", "f"}},
		{`echo "a b" 'c d' e\ f`, []string{"echo|a b|c d|e f"}},
		{"x > out 2>&1 >> app", []string{"x>/w/out>/w/app"}},
		{"cd sub && rm x", []string{"cd|sub", "rm|x@/w/sub"}},
		{"(cd sub; rm x); rm y", []string{"cd|sub", "rm|x@/w/sub", "rm|y@/w"}},
		{"echo $(a b) `c`", []string{"a|b", "c", "echo|b|c"}}, // a word that is one substitution names what it ran
		{"ls ~ ~/x $HOME/y ${HOME}/z", []string{"ls|/h|/h/x|/h/y|/h/z"}},
		{"cat <<EOF\nnot a command\nEOF\nls", []string{"cat", "ls"}},
		{"A=1 B=2 cmd arg", []string{"cmd|arg"}},
		{"if x; then y; fi", []string{"x", "y"}},
		{"f() { g; }", []string{"f", "g"}},
		{"a # comment ; b", []string{"a"}},
		{"a &>log", []string{"a>/w/log"}},
	} {
		var got []string
		for _, s := range parse(c.line, "/w", e.get) {
			var ws []string
			for _, w := range s.words {
				ws = append(ws, w.text)
			}
			g := strings.Join(ws, "|")
			for _, wr := range s.writes {
				g += ">" + absIn(wr.text, s.dir)
			}
			if strings.Contains(c.line, "rm") && len(ws) > 0 && ws[0] == "rm" {
				g += "@" + s.dir
			}
			got = append(got, g)
		}
		if strings.Join(got, " ; ") != strings.Join(c.want, " ; ") {
			t.Errorf("%q: %q, want %q", c.line, got, c.want)
		}
	}
}
