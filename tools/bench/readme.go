package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"strings"
	"text/template"
	"time"
)

// readmeTemplate is README.md's source: the method, written by hand, and
// the table, filled from a results file.
//
//go:embed README.md.tmpl
var readmeTemplate string

var readmeFuncs = template.FuncMap{
	"ms":    func(x float64) string { return fmt.Sprintf("%.2f", x) },
	"ratio": func(x float64) string { return fmt.Sprintf("%.2f×", x) },
	"mib":   func(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) },
	"budget": func(b *float64) string {
		if b == nil {
			return "—"
		}
		return fmt.Sprintf("≤ %.2f×", *b)
	},
	"verdict": func(v string) string {
		switch v {
		case verdictPass:
			return "pass"
		case verdictMiss:
			return "**MISS**"
		}
		return "—"
	},
	"ratios": func(reps []repeatStat) string {
		s := make([]string, len(reps))
		for i, r := range reps {
			s[i] = fmt.Sprintf("%.2f", r.Ratio)
		}
		return strings.Join(s, " · ")
	},
	"day":   func(t time.Time) string { return t.UTC().Format("2006-01-02") },
	"short": shortCommit,
}

// shortCommit is a commit's first 12 hex digits, with its "-dirty" mark.
func shortCommit(c string) string {
	hash, dirty, _ := strings.Cut(c, "-")
	if len(hash) > 12 {
		hash = hash[:12]
	}
	if dirty != "" {
		return hash + "-" + dirty
	}
	return hash
}

// render executes the named template of README.md.tmpl ("readme", or
// "table" alone) on r.
func render(name string, r results) ([]byte, error) {
	t, err := template.New("readme").Funcs(readmeFuncs).Parse(readmeTemplate)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, name, r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeReadme writes the README made from r to name.
func writeReadme(name string, r results) error {
	data, err := render("readme", r)
	if err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}
