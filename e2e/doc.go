// Package e2e runs context-budget inside the real Claude Code CLI against a
// mock of the Anthropic Messages API on 127.0.0.1, and checks what the model
// would have seen: the notices the hook injects into tool results.
//
// The tests need the CLI, pinned to the version in [ClaudeVersion]: `make
// e2e` installs it into the user's cache folder (context-budget/claude-code/) and runs them; CLAUDE_BIN points
// at another copy. Without the CLI they skip, or fail when CI=true and the
// suite was asked for (CONTEXT_BUDGET_E2E=1).
package e2e

// ClaudeVersion is the Claude Code release the suite is pinned to; the
// Makefile installs the same one.
const ClaudeVersion = "2.1.332"
