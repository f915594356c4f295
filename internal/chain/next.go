package chain

import "math"

// Next is what carries a stopped chain on, in the same chain: `run
// --chain ID`, whose places count on from this run's and whose budget
// counts what the chain spent.
type Next struct {
	// Resume is the session the next place resumes, "" for a new one.
	Resume string
	// Prompt is the next session's prompt: the take line, for a
	// successor that starts from the branch; for a resumed session the
	// person's answer, AnswerPlaceholder until they write it (Answer).
	Prompt string
	Answer bool
	// MaxRelays and MaxUSD (0: none) are the bounds it carries on under:
	// the one that stopped the chain raised, the other as it was.
	MaxRelays int
	MaxUSD    float64
}

// AnswerPlaceholder stands in a Next for the person's answer.
const AnswerPlaceholder = "YOUR ANSWER"

// next says what carries the chain on: nil when it finished. After a
// limit, the same step under that limit raised (another as many places;
// with the budget spent, whatever stopped the chain, the spend plus the
// budget again); after waiting (or a pause in
// manual mode), the person's answer to the session that asked, resumed
// as the next place; after any other stop, a successor from the branch.
func (r *runner) next() *Next {
	if r.sum.Stopped == Finished {
		return nil
	}
	n := &Next{MaxRelays: r.cfg.MaxRelays, MaxUSD: r.cfg.MaxUSD}
	var last *Session
	if k := len(r.sum.Sessions); k > 0 {
		last = &r.sum.Sessions[k-1]
	}
	branch := ""
	if last != nil {
		branch = last.Branch
	}
	if branch == "" {
		branch, _ = currentBranch(r.cfg.Dir)
	}
	n.Prompt = r.relay + " take " + branch
	switch r.sum.Stopped {
	case Waiting, Paused:
		if last != nil {
			n.Resume, n.Prompt, n.Answer = last.ID, AnswerPlaceholder, true
		}
	case MaxRelays:
		n.MaxRelays = 2*r.cfg.MaxRelays + 1
	}
	if _, left := r.remaining(); !left {
		// Spent, whatever stopped the chain: the next place needs more.
		n.MaxUSD = math.Ceil((r.spent()+r.cfg.MaxUSD)*100) / 100
	}
	if r.sum.Stopped != MaxRelays {
		// A chain stopped otherwise may be at its last place: the next
		// one must be allowed.
		if last != nil && last.Place >= n.MaxRelays+1 {
			n.MaxRelays = last.Place
		}
	}
	return n
}
