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

# Manual relay and the operator

By default a pause ends with the agent running /relay unasked. In manual
mode it tells the operator the session paused for its context budget and
offers /relay instead. Manual mode is on when
MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY is truthy (true, yes, on or 1, any
case), or when the operator's committed file

	<project>/.claude/context-budget/manual-relay/<login>

is. A falsy value (false, no, off, 0) means auto; anything else leaves the
default.

The operator is the GitHub user of the session's token, looked up only
when a notice is about to fire and the environment switch has not already
turned manual mode on, at most once per session: the answer, "none"
included, is kept in <project>/tmp/context-budget/<session_id>.operator.
The look-up runs context-budget-operator, a second small program installed
beside this one (else found on PATH), so that this program never links
net/http. It follows gh: the host from GH_HOST or gh's configuration, the
token from GH_TOKEN, GITHUB_TOKEN, GH_ENTERPRISE_TOKEN or gh's login, and
HTTPS_PROXY, NO_PROXY and SSL_CERT_FILE as usual; it never logs, whatever
GH_DEBUG says, and sends the token only to the GitHub host. No token, a
bot's token, an HTTP error or no answer within 1.5 seconds mean no
operator: the default applies and nothing is offered. The child is killed
after 2 seconds.

When an operator was found, relaying is automatic, and their file holds
neither a yes nor a no, the notice asks the agent to offer once, in plain
words, to ask before relaying in future. Only the operator's own words
write the file; the relay skill says how (write true or false, commit
quoting them, push), and the choice applies wherever the tree carries it.

# Skills

The notices point the agent at two skills, installed into .claude/skills/:
/relay hands the work to a fresh session through a written summary
(/relay take <branch> picks it up), and /go carries out a plan file,
including its section "Stopping partway releases the plan".

# Tuning

The environment tunes the lines; an invalid value prints one line on stderr
naming the variable, and the hook sends no notice on that call.

	MUTHUR_CONTEXT_BUDGET_WARN              fix the warn line, in tokens
	MUTHUR_CONTEXT_BUDGET_PAUSE             fix the pause line, in tokens
	MUTHUR_CONTEXT_BUDGET_WARN_SAVING_USD   warn where relaying saves this (0.20)
	MUTHUR_CONTEXT_BUDGET_PAUSE_SAVING_USD  pause where relaying saves this (0.80)
	MUTHUR_CONTEXT_BUDGET_LINES             "priced" (default) or "fixed": caps only
	MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY      truthy: the pause offers /relay (no look-up)
	MUTHUR_CONTEXT_BUDGET_WINDOW            the context window, in tokens

Without pricing the lines are the caps: warn at 300,000 tokens, pause at
400,000.
*/
package main
