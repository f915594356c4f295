package cli

import "github.com/muthur/context-budget/internal/hook"

// InstallCommand installs the programs the plugin's hooks run; the
// plugin's SessionStart check (hooks/hooks.json), doctor, install and
// context-budget, when context-budget-cli is missing, name it.
const InstallCommand = hook.InstallCommand

// CLIProgram is the program that holds every command: context-budget
// runs it in its place for any command but the hook and the status line,
// and install finds context-budget beside it.
const CLIProgram = hook.FullName
