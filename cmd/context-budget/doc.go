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
	lines       the reading, both lines and what set them, and the relay's
	            dollars, for a transcript or a hook payload
	statusline  Claude Code's statusLine command: one short line with the
	            reading and the next line
	install     register the hooks (and the status line) in Claude Code's
	            settings and copy the skills
	uninstall   remove what install added
	doctor      check what is installed where and how the transcripts read
	ledger      list the project's session rows with their costs and
	            orientation; ledger record is the Stop hook that writes them
	replay      run the hook's policy over past transcripts: where each
	            notice would have fired, peaks, compactions, dollars
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

# The lines

Each line is priced, capped, set by the window, or fixed by the environment,
and says which. The cost model compares carrying on over the next 100,000
tokens of work with relaying now: the summary turn, the successor's
re-orientation, and the slice carried on from the successor's small
context. The warn line is the context where relaying saves $0.20 over that
slice, the pause line where it saves $0.80, each used only when it lies
below its cap (300,000 and 400,000 tokens): pricing only moves a line
earlier. The rates come from a price table built into the binary (as_of
dated) by the last response's model and speed; a file of the same shape at
$XDG_CONFIG_HOME/context-budget/prices.toml, then
<project>/.claude/context-budget/prices.toml, overrides or extends it. An
unknown model is unpriced: the lines stay at the caps.

The lines also respect the context window: Claude Code compacts on its own
20,000 + 13,000 tokens short of the window (167,000 on a 200k window,
967,000 on 1M, lower with CLAUDE_AUTOCOMPACT_PCT_OVERRIDE), so the pause
line is never later than 15,000 tokens before that point and the warn line
never later than 30,000 before the pause. The window is
MUTHUR_CONTEXT_BUDGET_WINDOW, else what the transcript says ([1m] models),
else 1M once a reading passed 200,000, else what the statusline recorded,
else 200,000. A line fixed in the environment is never moved.

The priced lines are cached per session in
<project>/tmp/context-budget/<session_id>.line and recomputed after 10,000
tokens of growth, a drop, or a change of anything they depend on.

# Lines

Usage:

	context-budget lines [--json] [--transcript FILE] [--project DIR]
	context-budget lines [--json] < payload.json

Lines prints, for the transcript (or the one a hook payload on stdin names),
the reading, both lines and what set them, what relaying now costs up front
and saves over the next 100k tokens, the successor's re-orientation and its
source (named as the notice names it), the requests per token q, the cache
TTL, the price table's as_of and the window with its compaction point. The
project (for price overrides and the ledger) is --project, else the
payload's, else $CLAUDE_PROJECT_DIR, the top of the git work tree, or the
current directory. --json prints one
object. A price file that does not parse is an error here; the hook ignores
it and uses the built-in table.

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

# Install and uninstall

	context-budget install [--scope user|project|local] [--statusline] [--dry-run]
	context-budget uninstall [--scope user|project|local] [--dry-run]

Install registers this binary, by its absolute path, in a Claude Code
settings file: the PostToolUse hook ("<path> hook", matcher "*"), the Stop
hook ("<path> ledger record") and, with --statusline, the statusLine
command ("<path> statusline"). It copies the skills into the matching
skills folder; a SKILL.md it replaces (an older version, or a skill of
the same name that is not ours) is kept beside it as SKILL.md.bak. The
scopes are:

	user     ~/.claude/settings.json, skills in ~/.claude/skills/
	project  <root>/.claude/settings.json, skills in <root>/.claude/skills/
	local    <root>/.claude/settings.local.json, skills as for project

~/.claude is $CLAUDE_CONFIG_DIR when that is set. The root is
$CLAUDE_PROJECT_DIR when set, else the top of the git work tree around the
current folder, else the current folder.

Install merges: every other key, hook and matcher stays where it was, with
the same value; the file is written back indented by two spaces. Running it
twice changes nothing. A registration of ours that names another path (any
command whose program is called context-budget, followed by hook, ledger
record or statusline) is updated where it stands, and a second copy is
removed. A statusLine that is not ours is left alone, and install stops
with an error. A file that is not valid JSON, or whose hooks are not shaped
as Claude Code documents them, is left untouched, and install exits with
status 1. Before a changed file is written, the previous one is kept next
to it as settings.json.bak (settings.local.json.bak), replaced by each
change. With --dry-run install prints a unified diff of the settings file
and the skills it would copy, and writes nothing.

Uninstall removes every registration of ours from the scope's file, and
the groups, event lists and hooks object that only held them, so the file
means again what it meant before install. It removes a skill only when the
file is still word for word the one this version installs, and leaves
its SKILL.md.bak, if any, in place.

# Plugin

The repository is also a Claude Code plugin and its own marketplace:

	/plugin marketplace add muthur/context-budget
	/plugin install context-budget@context-budget

The plugin's hooks run "context-budget" from PATH, so the binary must be
installed first, with "go install
github.com/muthur/context-budget/cmd/...@latest" or "make install" in a
clone. A plugin cannot set the statusLine; add it by hand or with
"context-budget install --statusline" (which also registers the hooks in
the settings: Claude Code then runs both, and the once-per-climb record
still sends each notice once).

# The status line

Registered as Claude Code's statusLine command, statusline reads the JSON
Claude Code sends on stdin and prints one line: the reading, the next line
and what set it, and, when the lines are priced, what relaying now would
save (or cost) over the next 100k tokens. For example

	ctx 120k · warn 122k (window) · relay costs $2.76
	ctx 182k · warn 190k (priced) · relay saves $0.12
	ctx 351k · pause 400k (cap)
	ctx 413k · past pause 400k (cap)

The figures come from the hook's own decision and line cache, so they are
the ones a notice would carry. It reads the transcript at once, without
the hook's wait. Anything it cannot read prints "ctx –", exit status 0.
With --color the reading is green below the warn line, yellow past it and
red past the pause. It also keeps context_window.context_window_size in
<project>/tmp/context-budget/<session_id>.window, written only when it
changes, for the window cap.

# Doctor

Doctor reports which settings files (user, project, local) register which
of our hooks, whether the binary each names exists and is this version,
whether the skills are present, each tuning variable's value and where it
comes from (the env block of which settings file, or the process
environment), the price table's as_of date and the user files laid over
it, and for the three newest transcripts under
~/.claude/projects/<project>/ the reading and the lines the hook would
use (and what relaying now would save, when priced), with anything odd: a
line set in the environment past Claude Code's compaction point,
lines that did not parse, readings above 1M tokens, record types it does
not know. <project> is the root's absolute path with every character other
than a letter or digit replaced by "-", as Claude Code names it, or
$CLAUDE_CODE_PROJECT_DIR_NAME. Doctor exits with status 0 when all is well,
1 with the list of problems otherwise; unknown record types are reported
but are no problem.

# The ledger

	context-budget ledger [--json] [--project DIR]
	context-budget ledger record
	context-budget ledger record --transcript FILE [--project DIR]

Registered as a Claude Code Stop hook, ledger record writes one row per
session to <project>/.claude/costs/sessions/<YYYY-MM>/<session_id>.json
(the month of the session's first response) and re-writes it at every
stop. The row prices the whole session at API rates: the main transcript
and every <transcript minus .jsonl>/subagents/*.jsonl file, one response
per message.id with its last record's usage, with the built-in price table
and any override (see prices.toml). It holds the totals (own turns,
subagents, per model and speed), the opening prompt, the branch, the price
table's as_of date, Claude Code's own total when the transcript carries
one (cost-state records) as a cross-check, warnings (a model the table
does not price counts at $0 and says so), and the orientation: what the
session spent before it first acted. Acting is an Edit, Write or
NotebookEdit of a file in the project (not under tmp/), an
AskUserQuestion or ExitPlanMode, or the session's own end of turn; the
spend is every response before that one, subagents included. After each
compaction the same measure gives a reorientation. Like the hook, the Stop
hook never fails loudly. Rows are written atomically and are meant to be
committed: they are the team's measured costs.

With --transcript, ledger record backfills the row of a past session into
the project in --project (default: the current directory) and prints the
row's path.

ledger lists the rows as a table: the date, branch, opening prompt, cost,
responses, the context and dollars of the orientation, and whether the
session was relayed (its opening prompt is /relay take …), with totals.
--json prints the rows. A file that is not a row is skipped and counted on
stderr.

The priced lines use the ledger: the successor's reorientation is, from
the first source that has one, this session's own orientation if it was
itself relayed, the mean over the ledger's relayed sessions, this
session's own orientation, else an estimate; the notice names it, e.g.
"the mean of 4 relayed sessions in the ledger".

# Replay

	context-budget replay [--json] [--readings] [--html FILE] [--workers N] [PATH…]

Replay runs the hook's policy over past sessions, so that you can see on
your own history what it would have done before you trust it. PATH is a
transcript or a folder searched recursively; the default is
~/.claude/projects ($CLAUDE_CONFIG_DIR/projects when that is set). Files under a session's subagents/ folder belong to
that session and are not replayed as sessions of their own.

For each session replay walks its own responses in order (main chain, not
synthetic, one per message id) and, after each one, decides exactly as the
hook would have had the transcript ended there: the same reading, the same
lines (from the same environment), the same once-per-climb rule. Replay
reads and writes nothing of the sessions' projects, so it prices the
successor's reorientation by the estimate; once a session has acted, or
its project's ledger holds relayed sessions, the hook's priced lines may
sit a few thousand tokens from replay's. It prints
a row per session: its responses, its peak reading, its compactions, and
each notice as level@response reading (responses count from 0). At each
pause it reports what the cost model predicted (what relaying saves over
the next 100,000 tokens, what carrying on costs) and what carrying on
really cost: the session's own
responses after the pause, up to and including the first whose reading is
100,000 tokens higher, at the price table's rates; there is no figure when
a compaction or an unpriced model comes first or the session ends. The
totals count sessions, notices, pauses and the sessions that compacted
before any notice, and give the median of |predicted − actual| / actual
over the pauses that have both.

	--json        print the replay as JSON instead of the table
	--readings    with --json, include every session's readings and lines
	--html FILE   also write a self-contained HTML report with a chart per
	              session (reading over requests, the lines, the notices
	              and the compactions) and the distribution of peaks; it is
	              drawn by context-budget-report, which must sit beside
	              context-budget or on PATH
	--workers N   files replayed at once (default: one per CPU)

On a terminal replay shows its progress on stderr (files done of the total,
MB/s).

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
	MUTHUR_CONTEXT_BUDGET_RATE              "forecast" (default) or "since-boundary"

The forecast prices the next 100k tokens from the session's measured pace
of work (growth per request since it first acted), its cache re-writes and
its output per request, each shrunk towards a prior fitted on 186 real
sessions (from five ledger rows on, refined by the project's own) with a
weight that grows with the evidence; the carrying-on figure comes with the
band 8 in 10 real sessions fell in. "since-boundary" is the design's
estimator: the mean growth per request since the latest compaction, the
cache written once, output left out.

With MUTHUR_CONTEXT_BUDGET_LINES=fixed the lines are the caps (warn at
300,000 tokens, pause at 400,000) and the window's, and no pricing work is
done.
*/
package main
