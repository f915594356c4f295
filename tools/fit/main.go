// Command fit fits the forecast's prior on a folder of real Claude Code
// transcripts and writes it as Go source: the requests a session makes per
// token of growth once it works, the share of its context a request
// re-writes to the cache, and its output per request, per model family
// where the corpus has enough sessions, with the weights a session's own
// evidence gets against them and the spread of real sessions around the
// forecast; and what Claude Code's own compaction does to a session's
// context (its parts, fitted on the corpus's automatic compactions, to
// price the compaction beside the relay), and how a fresh session finds
// its feet before it first acts (the successor's reorientation where a
// project measured none). Everything that is chosen is
// chosen by five-fold cross-validation, the corpus split by session.
//
// It is a development tool, not installed for users:
//
//	go generate ./internal/forecast        # refit from ../shared/data/corpus
//	go run ./tools/fit -corpus DIR -out FILE
//
// and it prints what it measured (the figures README quotes) on stderr.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/tools/sharedtest"
)

func main() {
	dir := flag.String("corpus", "", "the folder of transcripts (default: $"+sharedtest.EnvCorpus+", else ../shared/data/corpus beside the repository)")
	out := flag.String("out", "", "the Go file to write (default: print it)")
	flag.Parse()
	if err := run(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "fit: error:", err)
		os.Exit(1)
	}
}

func run(dir, out string) error {
	if dir == "" {
		d, err := sharedtest.CorpusDir()
		if err != nil {
			return err
		}
		dir = d
	}
	table, err := prices.Embedded()
	if err != nil {
		return err
	}
	c, err := collect([]string{dir}, table)
	if err != nil {
		return err
	}
	if len(c.points) == 0 {
		return fmt.Errorf("no eligible points in %s", dir)
	}
	r := fitCorpus(c)
	obs, err := collectCompactions([]string{dir}, table)
	if err != nil {
		return err
	}
	r.compact = fitCompactions(obs)
	orient, err := collectOrientations([]string{dir}, table)
	if err != nil {
		return err
	}
	r.orient = fitOrientations(orient)
	fmt.Fprint(os.Stderr, r.report())
	src, err := r.source()
	if err != nil {
		return err
	}
	if out == "" {
		_, err = os.Stdout.Write(src)
		return err
	}
	return os.WriteFile(out, src, 0o644)
}
