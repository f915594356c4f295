// Command gentable writes table_gen.go, the embedded price table as Go
// data, from prices.toml (run by `go generate ./internal/prices`). The
// package's tests fail while table_gen.go is stale.
package main

import (
	"fmt"
	"go/format"
	"os"

	"github.com/muthur/context-budget/internal/prices"
)

func main() {
	if err := run("prices.toml", "table_gen.go"); err != nil {
		fmt.Fprintln(os.Stderr, "gentable:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	t, err := prices.Parse(data, in)
	if err != nil {
		return err
	}
	src, err := format.Source(prices.GoSource(t))
	if err != nil {
		return err
	}
	return os.WriteFile(out, src, 0o644)
}
