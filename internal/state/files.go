package state

// The names of the files a state folder holds. A session's files are
// named by its id (a PlainName) and a suffix that starts with a dot,
// which no PlainName holds: so a name says whose file it is and of what
// kind, and no id names another session's file of another kind ("x.lock"
// is not a session). The names that join two ids, a subagent's files
// <session_id>-<agent_id>…, are also what a session with that whole id
// would call its own (Claude Code's ids are UUIDs). The writers
// build their names from these; Files lists every kind, with its writer.
const (
	// Gitignore keeps the folder out of git status (Ensure).
	Gitignore = ".gitignore"
	// LedgerMean caches the mean of the ledger's relayed rows (package
	// orientation).
	LedgerMean = "ledger-mean.json"
	// Compactions indexes the automatic compactions of the user's
	// sessions (package compactions).
	Compactions = "compactions.json"

	// LockSuffix names a file's lock: <file>.lock, the once-per-climb
	// record's being <session_id>.lock.
	LockSuffix = ".lock"
	// LineSuffix: the line cache (package lines).
	LineSuffix = ".line"
	// HistorySuffix: the history the line cache's decision was made
	// from, resumed by the next recompute.
	HistorySuffix = ".history"
	// WindowSuffix: the window the status line recorded (package window).
	WindowSuffix = ".window"
	// OperatorSuffix: the operator the hook resolved (package operator).
	OperatorSuffix = ".operator"
	// PauseSuffix: whether the latest pause notice offered /relay
	// (package operator), for context-budget run.
	PauseSuffix = ".pause"
	// OrientationSuffix: the session's own orientation, once measured;
	// OrientationSearchSuffix: the search for it, resumed from call to
	// call (package orientation).
	OrientationSuffix       = ".orientation"
	OrientationSearchSuffix = ".orientation-search"
	// ColdSuffix: the cold-cache spell; ResumeSuffix: what a resumed or
	// forked session's start found (package cold).
	ColdSuffix   = ".cold"
	ResumeSuffix = ".resume"
	// CallsSuffix: the last call, for the spend fuse's loop step; a
	// subagent's <session_id>-<agent_id>.calls (package fuse). The rest
	// of the fuse's state lives outside the project (fuse.Dir).
	CallsSuffix = ".calls"
	// EventsSuffix: what the programs that run in or around a session
	// had to say of it, for its ledger row and the telemetry exporter
	// (package spool); SentSuffix: how far the exporter has sent them
	// (package telemetry/export).
	EventsSuffix = ".events"
	SentSuffix   = ".sent"
)

// File is one kind of file a state folder holds.
type File struct {
	// Name is the file's name, SessionID standing for the session's id
	// and AgentID for a subagent's.
	Name string
	// Writer is the package that writes it; What says what it holds.
	Writer, What string
}

// The stand-ins for ids in File.Name.
const (
	SessionID = "<session_id>"
	AgentID   = "<agent_id>"
)

// Files lists every kind of file a state folder holds, besides the
// temporary files of a write under way (package atomicfile; Clean
// removes those a killed writer left).
func Files() []File {
	const s = SessionID
	return []File{
		{Gitignore, "state", "keeps the folder out of git status"},
		{s, "climb", "the once-per-climb record: the level announced in this climb and the lines it fired at"},
		{s + LockSuffix, "climb", "the record's lock"},
		{s + LineSuffix, "lines", "the line cache: the decision and what it depends on"},
		{s + HistorySuffix, "lines", "the history the decision was made from, resumed by the next recompute"},
		{s + WindowSuffix, "window", "the context window the status line was given"},
		{s + OperatorSuffix, "operator", "the GitHub login the hook resolved"},
		{s + OperatorSuffix + LockSuffix, "operator", "its lock, held while the look-up runs"},
		{s + PauseSuffix, "operator", "whether the latest pause notice offered /relay (manual mode), and when"},
		{s + OrientationSuffix, "orientation", "the session's own orientation"},
		{s + OrientationSearchSuffix, "orientation", "the search for it, resumed"},
		{LedgerMean, "orientation", "the mean of the ledger's relayed rows"},
		{Compactions, "compactions", "the automatic compactions found in the user's transcripts, resumed from their offsets"},
		{s + "-" + AgentID, "climb", "a subagent's once-per-climb record (its wrap-up notice)"},
		{s + "-" + AgentID + LockSuffix, "climb", "its lock"},
		{s + ColdSuffix, "cold", "the cold-cache spell"},
		{s + ResumeSuffix, "cold", "what a resumed or forked session's start found"},
		{s + CallsSuffix, "fuse", "the last call and how many times in a row it ran (the loop step)"},
		{s + "-" + AgentID + CallsSuffix, "fuse", "a subagent's"},
		{s + EventsSuffix, "spool", "the session's notices and, under context-budget run, its end in the chain: one JSON object a line, appended"},
		{s + SentSuffix, "export", "how far the telemetry exporter has sent them, and how its last attempt went"},
		{s + SentSuffix + LockSuffix, "export", "its lock, held while the exporter sends"},
	}
}
