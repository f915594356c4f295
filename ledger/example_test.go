package ledger_test

import (
	"fmt"
	"io"
	"log"
	"os"

	"github.com/muthur/context-budget/ledger"
)

func Example() {
	root, err := os.MkdirTemp("", "project")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)

	row := &ledger.Row{
		SessionID:       "3f2a",
		OpeningPrompt:   "/relay take feat/parser",
		FirstResponseAt: "2026-09-14T08:00:00Z",
		PricesAsOf:      "2026-11-30",
		Total:           ledger.Tally{Responses: 120, CostUSD: 14.2},
		Orientation: &ledger.Phase{EndedBy: "Edit", EndedOn: "parse.go", ContextTokens: 97_000,
			Spend: ledger.Tally{Responses: 9, CostUSD: 0.57}},
	}
	if _, err := ledger.Write(root, row); err != nil {
		log.Fatal(err)
	}

	rd, err := ledger.NewReader(ledger.Dir(root))
	if err != nil {
		log.Fatal(err)
	}
	for {
		r, err := rd.Read()
		if err == io.EOF {
			break
		}
		fmt.Printf("%s relayed=%v oriented at %d tokens for $%.2f\n",
			r.SessionID, r.Relayed(), r.Orientation.ContextTokens, r.Orientation.Spend.CostUSD)
	}
	fmt.Println("skipped:", rd.Skipped)
	// Output:
	// 3f2a relayed=true oriented at 97000 tokens for $0.57
	// skipped: 0
}
