package notice

import "strconv"

// Count says how many of a thing there are, the noun agreeing: "1
// session", "3 sessions". Every noun the program counts takes an s.
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(n, noun)
}

// Noun is noun as it follows the number n: noun for one, with an s
// otherwise ("0 pauses").
func Noun(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}
