package main

import (
	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/replay"
)

// replayOptions builds the lines and the prices a replay uses: the hook's
// policy with these settings and this price table (nil: the embedded
// one), kept by the line cache's rule (replay.PolicyModel). No project
// root: replay touches nothing of the session's project, and prices the
// successor's reorientation by the estimate.
func replayOptions(s config.Settings, table *prices.Table, getenv func(string) string) replay.Options {
	if table == nil {
		table, _ = prices.Embedded()
	}
	return replay.Options{
		NewModel: func(path string) replay.Model { return replay.NewPolicyModel(s, table, "", path, getenv) },
		Prices:   replay.TablePrices{Table: table},
	}
}
