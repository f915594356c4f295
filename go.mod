module github.com/muthur/context-budget

go 1.26

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/rogpeppe/go-internal v1.16.0
)

require (
	golang.org/x/sys v0.26.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
