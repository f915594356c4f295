package override

import "fmt"

// MaxDepth bounds how deep a price file may nest. The deepest spelling a
// price table needs is 4: model = [{ band = { input = … } }], a key, an
// array, a key, a key.
const MaxDepth = 4

// checkNesting refuses text that nests deeper than MaxDepth, before the
// TOML library reads it: the library's time and memory grow with the
// square of the depth (nested inline tables, dotted keys and [table]
// headers alike), so 15 KB can cost it a second and hundreds of MiB.
//
// It counts only what makes depth: the parts of a dotted key or of a
// [table] header (which the keys below it start from), an inline table's
// keys under the key that holds it, an array's elements. It skips what
// cannot: strings and comments. Whether the text is TOML it leaves to the
// library.
func checkNesting(data []byte) error {
	type open struct {
		table bool // '{', whose keys follow; else '[', whose values do
		depth int  // the depth of what it holds
	}
	var stack []open
	line := 1
	header := 0         // the depth of the current [table]
	base, parts := 0, 1 // the key being read: the depth above it, its parts
	cur := 0            // the depth of the value being read
	inKey, inHeader, lineStart := true, false, true
	deep := func() error {
		return fmt.Errorf("line %d: nested deeper than %d, more than a price table needs", line, MaxDepth)
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			line++
			if len(stack) == 0 && !inHeader {
				inKey, base, parts, lineStart = true, header, 1, true
			}
			continue
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c == '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			var lines int
			i, lines = skipString(data, i)
			line += lines
		case c == '[' && inKey && lineStart && len(stack) == 0:
			if i+1 < len(data) && data[i+1] == '[' {
				i++
			}
			inHeader, base, parts = true, 0, 1
		case c == ']' && inHeader:
			if i+1 < len(data) && data[i+1] == ']' {
				i++
			}
			header, inHeader, inKey = parts, false, false
		case c == '.' && inKey:
			if parts++; base+parts > MaxDepth {
				return deep()
			}
		case c == '=' && inKey:
			if cur, inKey = base+parts, false; cur > MaxDepth {
				return deep()
			}
		case c == '{' || c == '[':
			at := cur
			if inKey {
				at = base + parts
			}
			if c == '[' {
				at++
			}
			if at > MaxDepth {
				return deep()
			}
			stack = append(stack, open{c == '{', at})
			cur, inKey, base, parts = at, c == '{', at, 1
		case (c == '}' || c == ']') && len(stack) > 0:
			stack = stack[:len(stack)-1]
			inKey = false
			if n := len(stack); n > 0 && !stack[n-1].table {
				cur = stack[n-1].depth
			}
		case c == ',' && len(stack) > 0:
			top := stack[len(stack)-1]
			if top.table {
				inKey, base, parts = true, top.depth, 1
			} else {
				cur = top.depth
			}
		}
		lineStart = false
	}
	return nil
}

// skipString returns the index of the last byte of the string that
// starts at data[i] (a quote), and the line ends inside it. A one-line
// string ends at the end of its line at the latest, as the library's
// does (it refuses the file there).
func skipString(data []byte, i int) (end, lines int) {
	q := data[i]
	if i+2 < len(data) && data[i+1] == q && data[i+2] == q {
		for i += 3; i < len(data); i++ {
			switch data[i] {
			case '\n':
				lines++
			case '\\':
				if q == '"' && i+1 < len(data) {
					if i++; data[i] == '\n' {
						lines++
					}
				}
			case q:
				if i+2 < len(data) && data[i+1] == q && data[i+2] == q {
					// Up to two more quotes belong to the string.
					end = i + 2
					for end+1 < len(data) && end+1 < i+5 && data[end+1] == q {
						end++
					}
					return end, lines
				}
			}
		}
		return len(data) - 1, lines
	}
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\n':
			return i - 1, lines
		case '\\':
			if q == '"' && i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case q:
			return i, lines
		}
	}
	return len(data) - 1, lines
}
