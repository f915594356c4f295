package replay

// Slice is the stretch of further work the model prices: 100,000 tokens
// of growth (design §4).
const Slice = 100_000

// carry measures what carrying on really cost after each pause: the
// session's own responses after it, up to and including the first whose
// reading is at least the pause's reading + Slice. A window closes without
// an actual when a boundary, an unpriced response or the end of the
// session comes first.
type carry struct {
	windows []window
	// done receives each closed window: the pause it belongs to, and its
	// cost and request count when it reached its target.
	done func(pause int, usd float64, requests int, ok bool)
}

type window struct {
	pause    int
	target   int64
	usd      float64
	requests int
}

func (c *carry) open(pause int, reading int64) {
	c.windows = append(c.windows, window{pause: pause, target: reading + Slice})
}

// add takes one response's reading and cost (ok false: unpriced).
func (c *carry) add(reading int64, usd float64, ok bool) {
	kept := c.windows[:0]
	for _, w := range c.windows {
		if !ok {
			c.done(w.pause, 0, 0, false)
			continue
		}
		w.usd += usd
		w.requests++
		if reading >= w.target {
			c.done(w.pause, w.usd, w.requests, true)
			continue
		}
		kept = append(kept, w)
	}
	c.windows = kept
}

func (c *carry) boundary() { c.close() }
func (c *carry) end()      { c.close() }

func (c *carry) close() {
	for _, w := range c.windows {
		c.done(w.pause, 0, 0, false)
	}
	c.windows = c.windows[:0]
}
