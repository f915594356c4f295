// Package replay runs the hook's policy over past transcripts (design §10):
// for each session, where the warning and the pause would have fired, the
// peak reading, the compactions, and at each pause what the model predicted
// carrying on would cost against what the session really spent.
//
// A session is walked forward, once, streaming: only the lines that can
// matter are decoded (a cheap byte test, as internal/reading does), and a
// response is evaluated when its last record has been seen, exactly as the
// hook would evaluate it if the transcript ended there. The decision after
// each response is climb.Step, the rule the hook applies under its lock, so
// a replay and the real hook agree notice for notice.
//
// The lines and the cost model come in through two seams: Model (the lines
// in force after each response, and the model's figures at a point) and
// Prices (what one response cost). Fixed lines and no prices give the caps
// and no dollars; pricing plugs in without touching the walk.
package replay
