/*
Context-budget tells a long Claude Code session when its context has grown
expensive enough that handing the work to a fresh session with /relay is
worth it, and asks the agent to steer to a stopping point or to stop and
relay.

Usage:

	context-budget <command> [arguments]

The commands are:

	hook        the PostToolUse hook: reads the payload on stdin, prints a
	            notice when a line is crossed, once per climb
	help        print this manual
	version     print the version

# The hook

Registered as a Claude Code PostToolUse hook, after every tool call the hook
takes the session's reading: the input, cache-read and cache-write tokens of
the last main-chain response in the transcript, which is the context the
last request carried. It compares the reading with two lines, the warn line
and the pause line, and when the reading crosses one for the first time in
this climb it prints one JSON object whose additionalContext Claude Code
shows the model: a warning (steer to a stopping point within the room left)
or a pause (stop now, commit, release the plan, and run /relay). A reading
that falls back under the warn line, as after a compaction, re-arms both.

The hook never fails loudly: anything it cannot read is silence and exit
status 0. A call made inside a subagent (agent_id set) is ignored. State
lives in <project>/tmp/context-budget/, which carries a .gitignore of its
own; the project is $CLAUDE_PROJECT_DIR, else the payload's cwd.

# Tuning

The environment tunes the lines; an invalid value prints one line on stderr
naming the variable, and the hook sends no notice on that call.

	MUTHUR_CONTEXT_BUDGET_WARN              fix the warn line, in tokens
	MUTHUR_CONTEXT_BUDGET_PAUSE             fix the pause line, in tokens
	MUTHUR_CONTEXT_BUDGET_WARN_SAVING_USD   warn where relaying saves this (0.20)
	MUTHUR_CONTEXT_BUDGET_PAUSE_SAVING_USD  pause where relaying saves this (0.80)
	MUTHUR_CONTEXT_BUDGET_LINES             "priced" (default) or "fixed": caps only
	MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY      truthy: the pause offers /relay
	MUTHUR_CONTEXT_BUDGET_WINDOW            the context window, in tokens

Without pricing the lines are the caps: warn at 300,000 tokens, pause at
400,000.
*/
package main
