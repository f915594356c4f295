package reading

// The size bound of each kind of file the program reads but does not own
// (for ReadFile). A file past its bound is refused as if unreadable: each
// reader then does what it does for a missing or damaged file, so a
// committed or planted file can cost a call at most its bound.
const (
	// MaxSideFile bounds the small side files of the state folder: a
	// session's climb record (<session>), its window (.window), its
	// operator (.operator), and an operator's manual-relay choice. Each
	// holds one short JSON object or one word.
	MaxSideFile = 64 << 10
	// MaxCacheFile bounds the state folder's caches: the line cache
	// (.line), the orientation and its search (.orientation,
	// .orientation-search) and the ledger's mean (ledger-mean.json, one
	// short summary per row: 4 MiB holds some 25,000 rows). A cache past
	// it is rebuilt.
	MaxCacheFile = 4 << 20
	// MaxLedgerRow bounds one ledger row: a real one is a few KB.
	MaxLedgerRow = 4 << 20
	// MaxSettings bounds a Claude Code settings file: real ones are a few
	// KB; a much larger one is not a settings file to edit.
	MaxSettings = 16 << 20
	// MaxSkill bounds an installed skill (SKILL.md): ours are a few KB.
	MaxSkill = 1 << 20
)
