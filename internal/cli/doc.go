/*
Context-budget tells a long Claude Code session when its context has grown
expensive enough that handing the work to a fresh session with /relay is
worth it, and asks the agent to steer to a stopping point or to stop and
relay.

Usage:

	context-budget <command> [arguments]

The commands are:

	hook        the PostToolUse hook: reads the payload on stdin, prints a
	            notice when a line is crossed, once per climb; as the
	            UserPromptSubmit hook it stops a prompt sent to a cold cache
	            when a fresh session is much cheaper
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
	budget      the spend fuse: arm, status, reset or disarm a session's
	            spend cap
	help        a short overview; help TOPIC prints a section of this
	            manual, help manual all of it
	version     print the version

Claude Code runs context-budget for the hook and the status line, which it
answers itself; every other command it hands to context-budget-cli,
installed beside it, which it runs in its place (the program started on
every tool call then links only what that call needs). Both come with
"go install github.com/muthur/context-budget/cmd/...@latest".

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

# The cold cache

Registered also for UserPromptSubmit and SessionStart, the hook prices the
first prompt after the session's prompt cache expired: when the last
response is older than the cache's time to live (5 minutes, or an hour once
the session wrote the 1-hour cache), the next request first re-writes the
whole context, (C - P)·w + P·r, with P the prefix other sessions keep warm
(the first response's cache read). A /relay would pay that re-write too;
only a fresh session from the branch skips it. When such a session saves
at least MUTHUR_CONTEXT_BUDGET_COLD_SAVING_USD (0.30) over the next
100,000 tokens, and the re-write alone costs that much, the prompt is
stopped (decision "block"; it makes no request, so the stop is free) with
a reason the user reads: the idle time, the re-write, the fresh session's
cost, and how to choose — send the same prompt again to carry on, or
/clear and then /relay take <branch>, offered only when nothing is
uncommitted. Once per cold spell: the same prompt sent again passes, and
nothing more is stopped before a response lands; a different prompt after
a stop is stopped once more. /compact, /clear, /relay, the built-in
commands that make no model request, and "!" shell commands always pass.
MUTHUR_CONTEXT_BUDGET_COLD=warn lets the prompt through with the figures
in the model's context (for scripted claude -p --resume runs), =off turns
the check off. A resumed or forked SessionStart keeps what Claude Code says
about the cache (seconds since the last response, context tokens) in the
state folder for the first prompt; a fork, whose transcript is written only
with its first response, is priced from the session it was forked from. The warm check reads only the
transcript's tail.

# The lines

Each line is priced, capped, set by the window, or fixed by the environment,
and says which. The cost model compares carrying on over the next 100,000
tokens of work with relaying now: the summary turn, the successor's
re-orientation, and the slice carried on from the successor's small
context. The warn line is the context where relaying saves $0.20 over that
slice, the pause line where it saves $0.80, each used only when it lies
below its cap (300,000 and 400,000 tokens): pricing only moves a line
earlier. The rates come from a price table built into the binary (as_of
dated) by the last response's model and speed. Your own file of the same
shape, $XDG_CONFIG_HOME/context-budget/prices.toml (else
~/.config/context-budget/prices.toml), may change any rate and add
models; a project's committed <project>/.claude/context-budget/prices.toml
may only add models the table lacks (lines and doctor name a row it
ignores), so that a repository cannot change what you are charged. Every
rate must lie within ten times the built-in table's range for its kind
(the error gives the range); a file that fails that, is larger than 64
KiB, nests deeper than a price table needs or does not parse is refused
whole, and the built-in table used. A key it does not know is skipped.
An unknown model is unpriced: the lines stay at the caps. The hook reads
no price file: lines and ledger record leave the merged table in
<project>/tmp/context-budget/prices.json, which the spend fuse prices
from while the files are unchanged; the hook's own lines use the
built-in table.

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

Lines prints, for the transcript (or the one a hook payload on stdin names;
with neither, the newest transcript of the project in the current folder,
from Claude Code's folder for it, as doctor finds it), first where the
session stands ("past the warn line, 12k over; the pause line is 18k on"),
then the reading, both lines and what set them, what relaying now costs up front
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
operator: the default applies and nothing is offered. The hook's call has
one deadline: it has decided within a second of reading its payload, or it
is silent and records nothing; once it has recorded a level, the look-up
(its lock wait and the child, which is then killed) ends 1.5 seconds later
at most, and the notice goes out by 2.5 seconds, as it reads with no
operator if none came in time.

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

Install registers this binary, by its absolute path (for the project
scope, whose file the team shares, as "context-budget" from PATH), in a
Claude Code settings file: the PostToolUse hook ("<path> hook", matcher "*"), the Stop
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
clone. Without it, the plugin's SessionStart hook (a one-line shell test,
once per session) tells the session and the user so, and doctor does too.
From the plugin, the skills are /context-budget:relay and
/context-budget:go, and the notices name them so (the hook knows it runs
from the plugin by $CLAUDE_PLUGIN_ROOT). A plugin cannot set the statusLine; add it by hand or with
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
of our hooks, whether the binary each names exists and is this version
(with the plugin enabled: whether context-budget is on PATH at all),
whether the skills are present (the plugin brings its own), each tuning variable's value and where it
comes from (the env block of which settings file, or the process
environment), the price table's as_of date and the user files laid over
it, and for the three newest transcripts under
~/.claude/projects/<project>/ the reading and the lines the hook would
use (and what relaying now would save, when priced), with anything odd: a
line set in the environment past Claude Code's compaction point,
lines that did not parse, readings above 1M tokens, records of a type
the hook does not know that carry usage (Claude Code writes many other
types, api-request-blob and atis-latch among them, that matter to no
reading and are not listed). <project> is the root's absolute path with every character other
than a letter or digit replaced by "-", as Claude Code names it, or
$CLAUDE_CODE_PROJECT_DIR_NAME. Doctor exits with status 0 when all is well,
1 with the list of problems otherwise; those unknown records are reported
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
the project in --project (default: the session's own, the folder its
transcript says it ran in) and prints the row's path.

ledger lists the rows as a table: the date, branch, opening prompt, cost,
responses, the context and dollars of the orientation, whether the
session was relayed (its opening prompt is /relay take … or, from the
plugin, /context-budget:relay take …) and the session id, with totals.
--json prints the rows. A file that is not a row is skipped and counted on
stderr.

The priced lines use the ledger: the successor's reorientation is, from
the first source that has one, this session's own orientation if it was
itself relayed, the mean over the ledger's relayed sessions, this
session's own orientation, else an estimate; the notice names it, e.g.
"the mean of 4 relayed sessions in the ledger".

# Replay

	context-budget replay [--json] [--readings] [--html FILE] [--workers N] [--spend AMOUNT] [--loop N] [--burn USD] [PATH…]

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
its first two notices as level@response reading (responses count from 0)
with how many more came (--json lists them all). At each
pause it reports what the cost model predicted (what relaying saves over
the next 100,000 tokens, what carrying on costs) and what carrying on
really cost: the session's own
responses after the pause, up to and including the first whose reading is
100,000 tokens higher, at the price table's rates; there is no figure when
a compaction or an unpriced model comes first or the session ends. The
totals count sessions, notices, pauses and the sessions that compacted
before any notice, and give the median of |predicted − actual| / actual
over the pauses that have both. The cold cache: per session and in total,
the responses that re-wrote more than 50,000 tokens after an idle past the
cache's TTL, what those writes cost, and the prompts the cold-cache stop
would have held back with what a fresh session would have saved there.

	--json        print the replay as JSON instead of the table
	--readings    with --json, include every session's readings and lines
	--html FILE   also write a self-contained HTML report with a chart per
	              session (reading over requests, the lines, the notices
	              and the compactions) and the distribution of peaks; it is
	              drawn by context-budget-report, which must sit beside
	              context-budget or on PATH; a last line says where
	              the page went
	--workers N   files replayed at once (default: one per CPU)
	--spend AMOUNT  also replay the spend fuse with a session cap from
	              launch ('$5', 5usd, 2m): a FUSE column with warn@R and
	              halt@R (the own response after which the spend passed
	              80% and 100%, subagents counted in time order) and the
	              dollars there; a "fuse" object per session and in the
	              totals of --json; a line per session in the HTML report
	--loop N      also show where N identical tool calls in a row would
	              have halted the session (loop@R and the call)
	--burn USD    also show where a spend of USD in 5 minutes would have
	              warned, as MUTHUR_CONTEXT_BUDGET_BURN_USD does: burn@R
	              and the 5 minutes' dollars, once per spell

On a terminal replay shows its progress on stderr (files done of the total,
MB/s).

# The spend fuse

	context-budget budget arm [--session ID] [--project DIR] AMOUNT
	context-budget budget status|reset|disarm [--session ID] [--project DIR]

Beside the context budget, the hook keeps a fuse on what a session spends.
A cap is dollars at API rates ('$5', 5usd) or tokens (2m, 500k; all four
usage fields, input, cache writes, cache reads and output, count). Quote
a dollar amount in a shell: a bare $5 expands to nothing, and an empty
amount is an error that says so. Dollars are the better unit: cache reads
dominate the tokens of a long session and cost a tenth of input.

	MUTHUR_CONTEXT_BUDGET_SPEND       the session's cap, counted from launch
	MUTHUR_CONTEXT_BUDGET_SPEND_DAY   the project's cap per UTC day
	MUTHUR_CONTEXT_BUDGET_LOOP        identical tool calls in a row that halt (5; 0 is off)
	MUTHUR_CONTEXT_BUDGET_BURN_USD    warn once per spell when 5 minutes cost more (unset: off)

budget arm sets a session cap from now: the baseline is what the session
has spent so far. It replaces MUTHUR_CONTEXT_BUDGET_SPEND for that
session; budget reset sets a new baseline for whichever cap holds (and
releases a loop halt); budget disarm drops the session cap, the
environment's too, for that session. The project's daily cap is the
environment's alone: change or unset MUTHUR_CONTEXT_BUDGET_SPEND_DAY to
move it. Precedence for the session cap: the last budget arm, reset or
disarm of the session, else MUTHUR_CONTEXT_BUDGET_SPEND. The session is
--session, else $CLAUDE_CODE_SESSION_ID (inside a session), else the
project's latest (the newest transcript under
~/.claude/projects/<project>/). budget status shows the session's spend
(and its subagents'), each cap with what counts against it and its share,
a loop halt, the burn rate, and the tokens of models the price table does
not know, which count against a token cap and nothing against a dollar
cap.

The day's spend is the project's: this session's responses stamped today
(UTC), the other live sessions' tallies in tmp/context-budget/, and the
ledger rows of sessions with no tally whose last response is today (a row
counts whole). The first call of a new day finds nothing spent: the cap is
released.

At 80% of a cap, once per cap and period (the arming, the launch, the
day), the next tool call carries a notice to the agent to steer to a
stopping point (the /go skill's "Stopping partway releases the plan") and
a systemMessage to the user. At 100% every tool call is denied (a
PreToolUse permissionDecision "deny" whose reason, which the model reads,
gives the spend, the cap and what to do) and the Stop and SubagentStop
hooks answer continue: false with a stopReason, so that neither a /goal
nor an autonomous loop carries on. budget status stays open to the agent.
Subagents count and are fenced: their responses (inline sidechains and
<transcript minus .jsonl>/subagents/*.jsonl, a response held in both
counted once) add to the session's spend, and a subagent's tool calls are
denied like the session's. One response is one message.id, its last
record counting, priced at its own model's rates.

Lifting the fuse is the user's act. While a cap holds (armed, under it or
past it), the hook denies the agent's tool calls that would lift it: our
CLI's budget arm, reset and disarm (re-arming moves the baseline),
context-budget uninstall, an Edit or Write of a file in tmp/context-budget/
or of a Claude Code settings file (settings.json, settings.local.json,
managed-settings.json: any edit can move a cap's value or drop a hook), a
Bash command that names the state folder or a file of the fuse's (.fuse,
.spend, .calls), removes the state folder or a folder above it (rm), runs
git clean -x, or names a settings file other than to read it (cat, jq,
grep and the like, with no redirection). These are
plain checks of the tool's input against a model that follows a
suggestion, not against a determined attacker: a command built at run
time (eval, a script, an encoding) evades this hook, as it would any.

The same tool call (its name and its input, keys sorted) made
MUTHUR_CONTEXT_BUDGET_LOOP times in a row halts the run: the PostToolUse
hook counts the calls in <session_id>.calls (a subagent's calls are a run
of their own) and records the halt, which the next PreToolUse call reads;
that call and every later one is denied with the call named, and the Stop
hook ends the run and releases the halt for the next prompt. The burn
rate is the spend of responses stamped in the last 5 minutes; past
MUTHUR_CONTEXT_BUDGET_BURN_USD it warns once until it falls back.

What it cannot do: it acts at the next tool call or stop, one response
behind (the response that crossed the cap has been paid for; Claude Code
may not have written it yet when the hook runs); it cannot interrupt a
model turn or a Bash command already running; on a subscription the
dollars are API-equivalent, not a bill.

Its cost: with no cap in the environment and no <session_id>.fuse, a
PreToolUse or Stop call reads the environment, tries one file and exits.
Metered, it keeps a tally in <session_id>.spend that resumes each file
from its last offset (a file that shrank, or whose first or last bytes
before the offset changed, is read again), so a call costs what was
appended since the last one. install registers PreToolUse ("<path> hook",
matcher "*"), a second Stop hook and SubagentStop ("<path> hook") for it;
the fuse's Stop answer is its own registration, apart from ledger record,
so that the ledger's wait for the final message never delays it and a
failure of one never silences the other.

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
	MUTHUR_CONTEXT_BUDGET_COLD              "on" (default: stop a cold prompt), "warn" or "off"
	MUTHUR_CONTEXT_BUDGET_COLD_SAVING_USD   stop a cold prompt when a fresh session saves this (0.30)

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
package cli
