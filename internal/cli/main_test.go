package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/muthur/context-budget/internal/hook"
	"github.com/muthur/context-budget/internal/operator/gh"
	"github.com/muthur/context-budget/internal/report"

	"github.com/muthur/context-budget/tools/sharedtest"
)

func TestMain(m *testing.M) {
	testDeadlines()
	// Tests that start real hook processes run this test binary with
	// testOnlyRunMain set: it then is the program.
	if os.Getenv(testOnlyRunMain) != "" {
		programMain()
	}
	testscript.Main(isolated{m}, map[string]func(){
		// context-budget answers the hook and the status line and runs
		// context-budget-cli for the rest, as installed.
		"context-budget":          func() { os.Exit(hook.Main(os.Args[1:])) },
		"context-budget-cli":      programMain,
		"context-budget-operator": operatorMain,
		// The report's own program, which replay --html runs.
		"context-budget-report": func() { os.Exit(report.Command(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// The CLI where its lift check (testOnlyOrigin) reads a given
		// origin: the user at their own terminal; a terminal inside a
		// Claude Code session; no terminal. The scripts' own ancestry
		// may hold Claude Code, and their standard input is no terminal.
		"context-budget-user": func() {
			testOnlyOrigin = func() origin {
				return origin{ancestors: []process{{pid: 2, exe: "/usr/bin/bash", args: []string{"-bash"}}}, terminal: true}
			}
			programMain()
		},
		"context-budget-in-session": func() {
			testOnlyOrigin = func() origin {
				return origin{ancestors: []process{{pid: 3, exe: "/usr/bin/bash", args: []string{"/bin/bash", "-c", "context-budget budget disarm"}},
					{pid: 2, exe: "/opt/claude-code/bin/claude.exe", args: []string{"claude"}}}, terminal: true}
			}
			programMain()
		},
		"context-budget-no-terminal": func() {
			testOnlyOrigin = func() origin {
				return origin{ancestors: []process{{pid: 2, exe: "/usr/bin/bash", args: []string{"-bash"}}}}
			}
			programMain()
		},
	})
}

// programMain is the whole program as context-budget-cli runs it (the
// hook and the status line included), for the scripts and for the tests
// that start real hook processes.
func programMain() {
	os.Exit(Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// testOnlyRunMain names the variable that makes the test binary run main.
const testOnlyRunMain = "CONTEXT_BUDGET_TEST_ONLY_RUN_MAIN"

// testOnlyLongDeadlines names the variable that gives that main a minute
// for each of the hook's deadlines.
const testOnlyLongDeadlines = "CONTEXT_BUDGET_TEST_ONLY_LONG_DEADLINES"

// testOnlyRealDeadlines names the variable that keeps the hook's own
// budgets in this binary, for the tests of the deadline itself.
const testOnlyRealDeadlines = "CONTEXT_BUDGET_TEST_ONLY_REAL_DEADLINES"

// testDeadlines sets the hook's budgets for this binary, whether it runs
// the tests, a script's command or the program for a test: a call's
// answer must not depend on the machine's load, so a call gets ten
// minutes to decide (hook.TestOnlyLongQuiet) unless a test of the deadline asks
// for the real budgets, or every wait gets a minute where a test compares
// the hook's decisions with replay's (drive_test.go).
func testDeadlines() {
	switch {
	case os.Getenv(testOnlyLongDeadlines) != "":
		hook.TestOnlyLongDeadlines()
	case os.Getenv(testOnlyRealDeadlines) == "":
		hook.TestOnlyLongQuiet()
	}
}

// operatorMain is the context-budget-operator command, which the hook runs
// in a child process when a notice fires; here it is this test binary.
func operatorMain() {
	os.Exit(gh.Run(os.Args[1:], os.Stdout, os.Stderr))
}

// suiteTemp is a folder that lasts as long as the package's tests, for
// what several tests share (the corpus drive's homes): a test's TempDir
// goes when that test ends.
var suiteTemp string

// isolated runs the tests with none of the developer's GitHub identity:
// gh's configuration is an empty folder, no token is in the environment,
// no gh binary is asked and no proxy is set, so a hook that fires a notice
// never looks anyone up unless a test sets that up itself.
type isolated struct{ m *testing.M }

func (i isolated) Run() int {
	dir, err := os.MkdirTemp("", "context-budget-gh")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if suiteTemp, err = os.MkdirTemp("", "context-budget-suite"); err != nil {
		panic(err)
	}
	defer os.RemoveAll(suiteTemp)
	os.Setenv("GH_CONFIG_DIR", dir)
	os.Setenv("GH_PATH", filepath.Join(dir, "no-gh"))
	for _, v := range []string{"GH_HOST", "GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN",
		"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"} {
		os.Unsetenv(v)
	}
	return i.m.Run()
}

// TestScripts runs every testdata/script/*.txtar: one file per behaviour of
// the command line, read like a terminal session.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		Setup:               scriptSetup,
		Cmds:                scriptCmds,
		Condition:           scriptCondition,
		RequireExplicitExec: true,
		UpdateScripts:       *updateScripts,
	})
}

// updateScripts rewrites the scripts' expected files from what the
// commands print: go test ./internal/cli -run TestScripts -update-scripts.
var updateScripts = flag.Bool("update-scripts", false, "rewrite the scripts' cmp files from the output")

// scriptSetup gives every script a clean environment: a temporary HOME and
// none of the tuning variables of the developer's shell.
func scriptSetup(env *testscript.Env) error {
	env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
	env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, "home", ".config"))
	env.Setenv("CLAUDE_PROJECT_DIR", "")
	// The scripts run the default rate, the one users get; those that pin
	// the design's own figures (§4) set MUTHUR_CONTEXT_BUDGET_RATE=since-boundary.
	env.Setenv("MUTHUR_CONTEXT_BUDGET_RATE", "")
	if dir, err := sharedTranscripts(); err == nil {
		env.Setenv("SHARED_TRANSCRIPTS", dir)
	}
	return os.MkdirAll(filepath.Join(env.WorkDir, "home"), 0o755)
}

// scriptCmds are the custom commands the scripts may use, one per file
// that needs one.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"hookjson":    cmdHookJSON,
	"appendlater": cmdAppendLater,
	"payload":     cmdPayload,
	"pluginhook":  cmdPluginHook,
	"cbpath":      cmdCBPath,
	"slugdir":     cmdSlugDir,
	"touchold":    cmdTouchOld,
	"exits":       cmdExits,
	"fuse":        cmdFuse,
	"fusedir":     cmdFuseDir,
	"today":       cmdToday,
	"hold":        cmdHold,
	"release":     cmdRelease,
}

// scriptCondition adds [shared]: the real transcripts are beside the
// repository.
func scriptCondition(cond string) (bool, error) {
	if cond == "shared" {
		_, err := sharedTranscripts()
		return err == nil, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// sharedTranscripts finds ../shared/data/transcripts beside the repository.
func sharedTranscripts() (string, error) {
	return sharedtest.Dir()
}
