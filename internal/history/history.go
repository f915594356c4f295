// Package history is the old home of forecast.History, kept only until
// the packages another change is editing import forecast (the last commit
// of this series removes it).
package history

import "github.com/muthur/context-budget/internal/forecast"

// The names those packages use.
type (
	History  = forecast.History
	Response = forecast.Response
)
