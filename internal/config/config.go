// Package config is the old name of package tuning, kept only until the
// packages another change is editing import tuning (the last commit of
// this series removes it).
package config

import "github.com/muthur/context-budget/internal/tuning"

// The names those packages use.
type (
	Settings = tuning.Settings
	Error    = tuning.Error
)

// The names those packages use.
var (
	FromEnv     = tuning.FromEnv
	ColdFromEnv = tuning.ColdFromEnv
)

// The names those packages use.
const (
	ColdOff           = tuning.ColdOff
	EnvRate           = tuning.EnvRate
	EnvWarn           = tuning.EnvWarn
	EnvPauseSaving    = tuning.EnvPauseSaving
	RateSinceBoundary = tuning.RateSinceBoundary
)
