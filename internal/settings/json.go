package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Object is a JSON object that keeps its keys in the order they were
// read, so that rewriting a settings file moves nothing the user wrote.
// Values are *Object, []any, string, json.Number, bool or nil; in an
// array, a string read in a spelling Encode would not write (an escape
// such as "\ud800", "\u00e9" or "\/") is its JSON text, a
// json.RawMessage.
type Object struct {
	keys []string
	vals map[string]any
	// rawKeys and rawVals keep, by key, the JSON text of a key or of a
	// string value read in a spelling Encode would not write: a lone
	// surrogate decodes to U+FFFD, an escaped letter to the letter, and
	// written back either would change what the user wrote. A value set
	// anew loses its text.
	rawKeys, rawVals map[string]string
}

// NewObject returns an empty object.
func NewObject() *Object {
	return &Object{vals: map[string]any{}}
}

// Get returns the value of key and whether it is present.
func (o *Object) Get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// Set sets key to v, keeping the key's place when it is already present
// and appending it otherwise. A string value set to what it was keeps its
// spelling.
func (o *Object) Set(key string, v any) {
	old, ok := o.vals[key]
	if !ok {
		o.keys = append(o.keys, key)
	}
	if s, isString := v.(string); !isString || old != s {
		delete(o.rawVals, key)
	}
	o.vals[key] = v
}

// Delete removes key.
func (o *Object) Delete(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	delete(o.rawKeys, key)
	delete(o.rawVals, key)
	i := slices.Index(o.keys, key)
	o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
}

// Keys returns the keys in order.
func (o *Object) Keys() []string { return o.keys }

// Len reports the number of keys.
func (o *Object) Len() int { return len(o.keys) }

// ErrNotObject reports a settings file whose top level is not an object.
var ErrNotObject = errors.New("the top level is not a JSON object")

// Parse decodes a settings file. Empty or all-blank input is an empty
// object, as Claude Code treats a missing file.
func Parse(data []byte) (*Object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return NewObject(), nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, _, err := (&decoder{dec: dec, data: data}).value(0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the top-level value")
	}
	o, ok := v.(*Object)
	if !ok {
		return nil, ErrNotObject
	}
	return o, nil
}

// maxDepth bounds nesting: the indented output grows with the square of
// the depth, and no settings file nests past a handful of levels.
const maxDepth = 200

// ErrTooDeep reports a settings file nested past maxDepth.
var ErrTooDeep = errors.New("nested too deep")

// decoder reads a settings file's values, noting the JSON text of each
// string it reads.
type decoder struct {
	dec  *json.Decoder
	data []byte
}

// token returns the next token and, when it is a string spelled as
// Encode would not spell it, its JSON text ("" otherwise).
func (d *decoder) token() (json.Token, string, error) {
	from := d.dec.InputOffset()
	tok, err := d.dec.Token()
	if err != nil {
		return nil, "", err
	}
	s, ok := tok.(string)
	if !ok {
		return tok, "", nil
	}
	to := d.dec.InputOffset()
	if from < 0 || to > int64(len(d.data)) || from > to {
		return tok, "", nil
	}
	// Between the two offsets: the separators the decoder skipped, then
	// the string.
	text := strings.TrimLeft(string(d.data[from:to]), " \t\r\n,:")
	var canon bytes.Buffer
	encodeString(&canon, s)
	if !strings.HasPrefix(text, `"`) || text == canon.String() {
		return tok, "", nil
	}
	return tok, text, nil
}

// value decodes a value and, for a string spelled unusually, its JSON
// text.
func (d *decoder) value(depth int) (any, string, error) {
	if depth > maxDepth {
		return nil, "", ErrTooDeep
	}
	tok, text, err := d.token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, "", err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := NewObject()
			for d.dec.More() {
				kt, ktext, err := d.token()
				if err != nil {
					return nil, "", err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, "", fmt.Errorf("object key is %v, not a string", kt)
				}
				v, vtext, err := d.value(depth + 1)
				if err != nil {
					return nil, "", err
				}
				// A repeated key keeps its first place and its last value,
				// as JavaScript's JSON.parse does.
				o.Set(k, v)
				o.rawKeys = setText(o.rawKeys, k, ktext)
				o.rawVals = setText(o.rawVals, k, vtext)
			}
			if _, err := d.dec.Token(); err != nil {
				return nil, "", err
			}
			return o, "", nil
		case '[':
			a := []any{}
			for d.dec.More() {
				v, vtext, err := d.value(depth + 1)
				if err != nil {
					return nil, "", err
				}
				if vtext != "" {
					v = json.RawMessage(vtext)
				}
				a = append(a, v)
			}
			if _, err := d.dec.Token(); err != nil {
				return nil, "", err
			}
			return a, "", nil
		}
		return nil, "", fmt.Errorf("unexpected %v", t)
	default:
		return tok, text, nil
	}
}

// setText notes text for key in m (made when needed), or forgets it.
func setText(m map[string]string, key, text string) map[string]string {
	if text == "" {
		delete(m, key)
		return m
	}
	if m == nil {
		m = map[string]string{}
	}
	m[key] = text
	return m
}

// Encode writes o as JSON indented by two spaces, the way Claude Code
// writes its own settings, with a final newline.
func Encode(o *Object) []byte {
	var b bytes.Buffer
	encodeValue(&b, o, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func encodeValue(b *bytes.Buffer, v any, depth int) {
	switch t := v.(type) {
	case *Object:
		encodeList(b, '{', '}', len(t.keys), depth, func(i int) {
			k := t.keys[i]
			if text, ok := t.rawKeys[k]; ok {
				b.WriteString(text)
			} else {
				encodeString(b, k)
			}
			b.WriteString(": ")
			if text, ok := t.rawVals[k]; ok {
				b.WriteString(text)
			} else {
				encodeValue(b, t.vals[k], depth+1)
			}
		})
	case []any:
		encodeList(b, '[', ']', len(t), depth, func(i int) { encodeValue(b, t[i], depth+1) })
	case string:
		encodeString(b, t)
	case json.Number:
		b.WriteString(t.String())
	case json.RawMessage:
		b.Write(t)
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	default:
		// Only the types decodeValue produces reach here; anything else
		// is a programming error worth seeing in the output.
		fmt.Fprintf(b, "%q", fmt.Sprint(t))
	}
}

// encodeList writes n members between open and close, one a line
// indented below the brackets' depth; none is the two brackets alone.
func encodeList(b *bytes.Buffer, open, close byte, n, depth int, member func(i int)) {
	b.WriteByte(open)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n" + strings.Repeat("  ", depth+1))
		member(i)
	}
	if n > 0 {
		b.WriteString("\n" + strings.Repeat("  ", depth))
	}
	b.WriteByte(close)
}

func encodeString(b *bytes.Buffer, s string) {
	var sb bytes.Buffer
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	b.Write(bytes.TrimSuffix(sb.Bytes(), []byte("\n")))
}
