module github.com/muthur/context-budget

go 1.26
