package replay

import "testing"

func TestRooms(t *testing.T) {
	notices := []Notice{
		{Level: "warn", Response: 3, Reading: 100_000},
		{Level: "pause", Response: 5, Reading: 130_000},
		{Level: "pause", Response: 8, Reading: 150_000}, // a later pause of the same climb
		{Level: "pause", Response: 20, Reading: 150_000},
	}
	boundaries := []Boundary{
		{Kind: "compact", AfterResponse: 10, Trigger: "auto", PreTokens: 160_000},
		{Kind: "microcompact", AfterResponse: 12},
		{Kind: "compact", AfterResponse: 15, Trigger: "auto", PreTokens: 156_000}, // no pause in 11–15
		{Kind: "compact", AfterResponse: 22, Trigger: "manual", PreTokens: 152_000},
	}
	rs := Rooms(notices, boundaries)
	if len(rs) != 3 {
		t.Fatalf("%d rooms: %+v", len(rs), rs)
	}
	if r := rs[0]; !r.Paused || r.PauseResponse != 5 || r.Tokens != 30_000 || r.Responses != 5 || !r.Enough() || r.Boundary != 0 {
		t.Errorf("first: %+v", r)
	}
	if r := rs[1]; r.Paused || r.Enough() || r.Boundary != 2 {
		t.Errorf("second: %+v", r)
	}
	if r := rs[2]; !r.Paused || r.Tokens != 2_000 || r.Trigger != "manual" {
		t.Errorf("third: %+v", r)
	}
	s := SummarizeRooms(rs)
	if s.Auto != 2 || s.Paused != 1 || s.Enough != 1 || s.Short != 1 || s.MedianTokens != 30_000 || s.MedianResponses != 5 {
		t.Errorf("summary %+v", s)
	}
}
