/*
Context-budget-telemetry sends what context-budget knows of a project's
sessions to the team's OpenTelemetry collector: each notice with its
verdict, each session's ledger figures, the spend fuse's halts and the
sessions of a relay chain, as OTLP log records keyed by session.id, and
a few metrics beside.

Usage:

	context-budget-telemetry export --root DIR --session ID [--transcript FILE] [-v]

The Stop hook (context-budget ledger record) and context-budget run start
it when the user has turned Claude Code's telemetry on, giving it the
OpenTelemetry variables of the user's settings (never a project's); it
sends under a deadline of 1.5 seconds and keeps what it could not send
for the next run. It is a program of its own so that neither the hook's
program nor context-budget-cli links the OpenTelemetry SDK.

The manual: context-budget help telemetry.
*/
package main

import (
	"os"

	"github.com/muthur/context-budget/internal/telemetry/export"
)

func main() {
	os.Exit(export.Command(os.Args[1:], os.Stderr))
}
