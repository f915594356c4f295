package reading

// The size bound of each kind of file the program reads but does not own
// (for ReadFile). A file past its bound is refused as if unreadable: each
// reader then does what it does for a missing or damaged file, so a
// committed or planted file can cost a call at most its bound.
const (
	// MaxSideFile bounds the small side files of the state folder: a
	// session's climb record (<session>), its operator (.operator), its
	// cold spell (.cold) and its start's record (.resume), and the fuse's
	// arm file and halts. Each holds short JSON or one word a line.
	MaxSideFile = 64 << 10
	// MaxWindowFile bounds the window the status line recorded
	// (.window): one number.
	MaxWindowFile = 64
	// MaxChoice bounds an operator's committed manual-relay choice: a
	// yes or a no is a few bytes, and a large file is not one we wrote.
	MaxChoice = 1 << 10
	// MaxTally bounds the spend fuse's tally (.spend): an offset and a
	// sum per transcript the session wrote.
	MaxTally = 16 << 20
	// MaxPriceFile bounds a price file (prices.toml): the built-in table
	// is under 4 KB, and the TOML library's cost grows fast past it.
	MaxPriceFile = 64 << 10
	// MaxPluginManifest bounds the plugin's manifest
	// (.claude-plugin/plugin.json), read for the plugin's name.
	MaxPluginManifest = 64 << 10
	// MaxCacheFile bounds the state folder's caches: the line cache
	// (.line), the orientation and its search (.orientation,
	// .orientation-search) and the ledger's mean (ledger-mean.json, one
	// short summary per row: 4 MiB holds some 25,000 rows). A cache past
	// it is rebuilt.
	MaxCacheFile = 4 << 20
	// MaxCompactionIndex bounds the index of the user's compactions
	// (compactions.json): a few hundred bytes per transcript.
	MaxCompactionIndex = 16 << 20
	// MaxLedgerRow bounds one ledger row: a real one is a few KB.
	MaxLedgerRow = 4 << 20
	// MaxSettings bounds a Claude Code settings file: real ones are a few
	// KB; a much larger one is not a settings file to edit.
	MaxSettings = 16 << 20
	// MaxEvents bounds a session's spool (.events): a notice or a chain's
	// session is a few hundred bytes, one per level per climb.
	MaxEvents = 1 << 20
	// MaxSkill bounds an installed skill (SKILL.md): ours are a few KB.
	MaxSkill = 1 << 20
	// MaxProcFile bounds what the CLI reads of a process under /proc
	// (stat, cmdline): a command line is at most the system's ARG_MAX,
	// 2 MiB on Linux.
	MaxProcFile = 4 << 20
)
