// Context-budget-operator prints the GitHub login of the user whose token
// the session holds, lowercased, or nothing when there is none: no token, a
// bot's token, a network failure, a timeout.
//
// Usage:
//
//	context-budget-operator [-v]
//
// The context-budget hook runs it, in a child process, only when a notice
// is about to fire and MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY does not already
// turn manual mode on; it keeps net/http out of the hook's own binary. The
// host and token come from gh's variables and configuration (GH_HOST,
// GH_TOKEN, GITHUB_TOKEN, GH_ENTERPRISE_TOKEN, GH_CONFIG_DIR, gh's login);
// HTTPS_PROXY, NO_PROXY and SSL_CERT_FILE apply as they do for gh. The
// request times out after 1.5 seconds.
//
// The exit status is 0 when a login was printed, 1 when there is no
// operator. The -v flag says why on stderr.
package main

import (
	"os"

	"github.com/muthur/context-budget/internal/operator/gh"
)

func main() {
	os.Exit(gh.Run(os.Args[1:], os.Stdout, os.Stderr))
}
