package reading

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/tools/gen"
)

// escapedTexts are long texts of the kinds the tail scan streams through,
// each as it stands in a transcript line: the generator's huge tool result
// (prose and code, a quote every ~70 bytes), a JSON document read by a tool
// (a quote every few bytes), and a log without quotes.
var escapedTexts = sync.OnceValue(func() map[string][]byte {
	var huge bytes.Buffer
	if _, err := gen.Write(&huge, gen.Options{Size: 1, Seed: 1, Tail: gen.TailBehindHuge, HugeResult: 1 << 20}); err != nil {
		panic(err)
	}
	line := bytes.TrimSuffix(huge.Bytes(), []byte("\n"))
	line = line[bytes.LastIndexByte(line, '\n')+1:]

	type entry struct {
		Name, Type string
		Lines      []int
		Fields     map[string]any
	}
	var doc []entry
	for i := range 4000 {
		doc = append(doc, entry{Name: fmt.Sprintf("internal/reading/file%d.go", i), Type: "text", Lines: []int{i, i * 7, i * 31},
			Fields: map[string]any{"content": "the role of the assistant", "ok": i%2 == 0, "role": "user"}})
	}
	raw, _ := json.MarshalIndent(doc, "", "  ")
	jsonText, _ := json.Marshal(string(raw))

	var log strings.Builder
	for i := 0; log.Len() < 1<<20; i++ {
		fmt.Fprintf(&log, "2026-11-02T09:00:%02d.%03dZ worker %d: assistant read 4096 bytes at offset %d, status ok\n", i%60, i%1000, i%8, i*4096)
	}
	logText, _ := json.Marshal(log.String())
	return map[string][]byte{"generated": line, "json": jsonText, "log": logText}
})

// TestContainsWordPositions puts the filter word, and near misses of it, at
// every position of texts around the lengths where containsWord changes
// method, on every kind of background.
func TestContainsWordPositions(t *testing.T) {
	word := []byte(transcript.AssistantWord)
	misses := []string{`"assistant\"`, `\"assistant"`, `"assistan"`, `"assistantt"`, `"assist ant"`, `t"`, `"a`}
	backgrounds := map[string][]byte{
		"zeros":   make([]byte, 2*denseRun),
		"quotes":  bytes.Repeat([]byte(`"`), 2*denseRun),
		"escaped": bytes.Repeat([]byte(`ab \"assistant\" t\"`), 2*denseRun/19),
		"near":    bytes.Repeat([]byte(`"assistant`), 2*denseRun/10),
	}
	for name, bg := range backgrounds {
		for _, n := range []int{0, 10, 11, 12, wordMin - 1, wordMin, wordMin + 1, wordMin + 50, 2*sparseGap + 3, denseRun + 77, 2 * denseRun} {
			base := bg[:min(n, len(bg))]
			check := func(s []byte) {
				t.Helper()
				want := bytes.Contains(s, word)
				for _, portable := range []bool{false, true} {
					if got := searchWord(s, word, portable); got != want {
						t.Fatalf("%s, %d bytes: searchWord(portable %v) = %v, bytes.Contains = %v in %q", name, len(s), portable, got, want, s)
					}
				}
			}
			check(base)
			for p := 0; p+len(word) <= len(base); p++ {
				s := bytes.Clone(base)
				copy(s[p:], word)
				check(s)
				for _, m := range misses {
					if p+len(m) <= len(base) {
						s := bytes.Clone(base)
						copy(s[p:], m)
						check(s)
					}
				}
			}
		}
	}
}

// FuzzContainsWord compares containsWord, with pairRun and with the
// portable pairRunGo, with bytes.Contains, for the filter word and for a
// word of the fuzzer's.
func FuzzContainsWord(f *testing.F) {
	for _, text := range escapedTexts() {
		for _, n := range []int{300, 5000} {
			f.Add(text[:n], []byte(transcript.AssistantWord))
		}
	}
	f.Add(bytes.Repeat([]byte(`x\"assistant\" `), 40), []byte(transcript.AssistantWord))
	f.Add(append(bytes.Repeat([]byte(`\"t\"`), 200), `"assistant"`...), []byte(transcript.AssistantWord))
	f.Add(bytes.Repeat([]byte("ab"), 300), []byte("ba"))
	f.Add(bytes.Repeat([]byte{0, 1}, 300), []byte{1, 0, 1})
	f.Add(bytes.Repeat([]byte{0x80}, 300), []byte{0x80, 0x80})
	f.Fuzz(func(t *testing.T, s, word []byte) {
		texts := [][]byte{s}
		if len(s) > 0 && len(s) < wordMin {
			// Short texts take bytes.Contains: repeat this one past
			// wordMin, so that the fuzzer's bytes reach the pair search.
			texts = append(texts, bytes.Repeat(s, wordMin/len(s)+1))
		}
		for _, s := range texts {
			for _, w := range [][]byte{[]byte(transcript.AssistantWord), word} {
				want := bytes.Contains(s, w)
				for _, portable := range []bool{false, true} {
					if got := searchWord(s, w, portable); got != want {
						t.Fatalf("searchWord(%q, %q, portable %v) = %v, bytes.Contains = %v", s, w, portable, got, want)
					}
				}
			}
		}
		// The fuzzer's word planted near the end, where the pair rounds
		// stop and IndexByte takes over.
		if len(word) > 0 && len(s) > len(word) {
			s := bytes.Clone(s)
			copy(s[max(0, len(s)-len(word)-len(s)%37):], word)
			want := bytes.Contains(s, word)
			for _, portable := range []bool{false, true} {
				if got := searchWord(s, word, portable); got != want {
					t.Fatalf("searchWord(%q, %q, portable %v) = %v, bytes.Contains = %v", s, word, portable, got, want)
				}
			}
		}
	})
}

// portable is containsWord without assembly.
func portable(s, word []byte) bool { return searchWord(s, word, true) }

// BenchmarkContainsWord searches the texts in the scan's blocks for the
// filter word, which none holds, as bytes.Contains, as containsWord and as
// containsWord without assembly.
func BenchmarkContainsWord(b *testing.B) {
	word := []byte(transcript.AssistantWord)
	for _, kind := range []string{"generated", "json", "log"} {
		text := escapedTexts()[kind]
		for _, search := range []struct {
			name string
			fn   func(s, word []byte) bool
		}{{"bytes.Contains", bytes.Contains}, {"containsWord", containsWord}, {"portable", portable}} {
			b.Run(kind+"/"+search.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					for s := 0; s < len(text); s += dropBlock {
						if search.fn(text[s:min(s+dropBlock, len(text))], word) {
							b.Fatal("found the word")
						}
					}
				}
			})
		}
	}
}

// BenchmarkContainsWordLines searches short transcript lines, most of which
// hold the word, as the scan does with the lines of its first block.
func BenchmarkContainsWordLines(b *testing.B) {
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Options{Size: 64 << 10, Seed: 2}); err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(buf.Bytes(), []byte("\n"))
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	word := []byte(transcript.AssistantWord)
	for _, search := range []struct {
		name string
		fn   func(s, word []byte) bool
	}{{"bytes.Contains", bytes.Contains}, {"containsWord", containsWord}, {"portable", portable}} {
		b.Run(search.name, func(b *testing.B) {
			b.SetBytes(int64(buf.Len()))
			for b.Loop() {
				for _, l := range lines {
					search.fn(l, word)
				}
			}
		})
	}
}
