package replay

// Slice is the stretch of further work the model prices: 100,000 tokens
// of growth (design §4).
const Slice = 100_000

// carry measures what carrying on really cost after a point of a session
// (a pause, or any response for the forecast's points): the session's own
// responses after it, up to and including the first whose reading is at
// least the point's reading + Slice. A window closes without an actual
// when a boundary, an unpriced response or the end of the session comes
// first.
type carry struct {
	windows []span
	// done receives each closed window, ok when it reached its target.
	done func(w span, ok bool)
}

// span is one point being measured: a pause (index into the session's
// pauses) or a forecast point (index into the walker's pending points).
type span struct {
	point    bool
	index    int
	target   int64
	cost     Parts
	requests int
}

func (c *carry) open(point bool, index int, reading int64) {
	c.windows = append(c.windows, span{point: point, index: index, target: reading + Slice})
}

// add takes one response's reading and cost (ok false: unpriced).
func (c *carry) add(reading int64, cost Parts, ok bool) {
	kept := c.windows[:0]
	for _, w := range c.windows {
		if !ok {
			c.done(w, false)
			continue
		}
		w.cost = w.cost.plus(cost)
		w.requests++
		if reading >= w.target {
			c.done(w, true)
			continue
		}
		kept = append(kept, w)
	}
	c.windows = kept
}

// end closes the open windows without an actual: at a boundary, or at the
// session's end.
func (c *carry) end() {
	for _, w := range c.windows {
		c.done(w, false)
	}
	c.windows = c.windows[:0]
}
