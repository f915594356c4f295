package climb

import "testing"

// A compaction re-arms both notices even when the context it leaves lies
// above a warn line priced low.
func TestCompactionRearms(t *testing.T) {
	ls := LineTokens{Warn: 64_000, Pause: 77_000}
	rec, fire := StepIn(Record{}, 117_000, ls, 0)
	if fire != Pause {
		t.Fatalf("fire %v", fire)
	}
	// After the compaction the context is 66k, over the warn line: without
	// the count the climb would go on silent.
	if _, fire := StepIn(rec, 80_000, ls, 0); fire != None {
		t.Errorf("same climb: %v", fire)
	}
	next, fire := StepIn(rec, 80_000, ls, 1)
	if fire != Pause || next.Compactions != 1 {
		t.Errorf("after a compaction: %v %+v", fire, next)
	}
	if _, fire := StepIn(next, 90_000, ls, 1); fire != None {
		t.Errorf("the new climb's pause repeats: %v", fire)
	}
	// Step keeps the recorded count.
	if _, fire := StepIn(next, 90_000, ls, next.Compactions); fire != None {
		t.Errorf("Step: %v", fire)
	}
}
