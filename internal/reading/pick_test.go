package reading

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// picked is a set of destinations of every kind a Field takes.
type picked struct {
	S, S2, OS, Deep     string
	I, OI               int64
	F                   float64
	B, OB               bool
	L                   []string
	R, OR               []byte
	O, P, E, Any, Bound Got
	GS, GI, GL, GR      Got
}

// pickFields names, into d, values of every kind, strict and lenient,
// bounded and lax, nested and not.
func pickFields(d *picked) []Field {
	return []Field{
		{Path: "s", To: &d.S, Got: &d.GS},
		{Path: "i", To: &d.I, Strict: true, Got: &d.GI},
		{Path: "f", To: &d.F},
		{Path: "b", To: &d.B},
		{Path: "l", To: &d.L, Max: 24, Lax: true, Got: &d.GL},
		{Path: "r", To: &d.R, Max: 40, Lax: true, Got: &d.GR},
		{Path: "any", To: &d.S2, Got: &d.Any},
		{Path: "e", Got: &d.E},
		{Path: "o", Got: &d.O, Strict: true},
		{Path: "o.s", To: &d.OS, Max: 12, Got: &d.Bound},
		{Path: "o.i", To: &d.OI},
		{Path: "o.b", To: &d.OB, Strict: true},
		{Path: "o.r", To: &d.OR},
		{Path: "o.p", Got: &d.P},
		{Path: "o.p.q.s", To: &d.Deep},
	}
}

// refPick is the reference: encoding/json reads data, and the fields'
// paths are followed through it as Pick documents, every occurrence of a
// key in order. valid is false when encoding/json does not read data as
// one JSON object.
func refPick(data []byte, fields []Field) (err error, valid bool) {
	if !json.Valid(data) || !bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
		return ErrSyntax, false
	}
	for _, f := range fields {
		zero(f)
	}
	var fail error
	refObject(data, "", fields, &fail)
	return fail, true
}

func zero(f Field) {
	if f.To != nil {
		v := reflect.ValueOf(f.To).Elem()
		v.Set(reflect.Zero(v.Type()))
	}
	if f.Got != nil {
		*f.Got = Absent
	}
}

func refObject(data []byte, prefix string, fields []Field, fail *error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token()
	for dec.More() {
		t, _ := dec.Token()
		key := t.(string)
		var v json.RawMessage
		dec.Decode(&v)
		if strings.Contains(key, ".") {
			continue // no path spells it
		}
		path := prefix + key
		var own *Field
		through := false
		for i := range fields {
			f := &fields[i]
			if f.Path == path || strings.HasPrefix(f.Path, path+".") {
				zero(*f)
			}
			if f.Path == path {
				own = f
			}
			through = through || strings.HasPrefix(f.Path, path+".")
		}
		got := func(g Got) {
			if own == nil {
				return
			}
			if own.Got != nil {
				*own.Got = g
			}
			if g == Other && own.Strict && *fail == nil {
				*fail = ErrMismatch
			}
			if g == Long && !own.Lax && *fail == nil {
				*fail = ErrLong
			}
		}
		switch {
		case string(v) == "null":
			got(Null)
		case through || (own != nil && own.To == nil):
			if v[0] != '{' {
				got(Other)
				continue
			}
			got(Found)
			if through {
				refObject(v, path+".", fields, fail)
			}
		case own != nil:
			got(refLeaf(v, own))
		}
	}
}

// refLeaf reads v into f's destination with encoding/json.
func refLeaf(v json.RawMessage, f *Field) Got {
	max := f.Max
	if max == 0 {
		max = maxField
	}
	number := v[0] == '-' || (v[0] >= '0' && v[0] <= '9')
	switch to := f.To.(type) {
	case *string:
		if v[0] != '"' {
			return Other
		}
	case *int64, *float64:
		if !number {
			return Other
		}
	case *bool:
		if v[0] != 't' && v[0] != 'f' {
			return Other
		}
		json.Unmarshal(v, to)
		return Found
	case *[]byte:
		if len(v) > max {
			return Long
		}
		*to = append([]byte(nil), v...)
		return Found
	case *[]string:
		if v[0] != '[' {
			return Other
		}
		if len(v) > max {
			return Long
		}
		var elems []json.RawMessage
		json.Unmarshal(v, &elems)
		out := []string{}
		for _, e := range elems {
			if e[0] != '"' {
				return Other
			}
			var s string
			json.Unmarshal(e, &s)
			out = append(out, s)
		}
		*to = out
		return Found
	}
	if len(v) > max {
		return Long
	}
	if err := json.Unmarshal(v, f.To); err != nil {
		zero(Field{To: f.To})
		return Other
	}
	return Found
}

// checkPick decodes data with Pick, from memory and a byte at a time,
// and with the reference, into destinations of the same shape.
func checkPick(t *testing.T, data []byte) {
	t.Helper()
	var got, one, want picked
	err := NewPick(pickFields(&got)...).Decode(data)
	oerr := NewPick(pickFields(&one)...).Stream(iotest.OneByteReader(bytes.NewReader(data)))
	if oerr != err || !reflect.DeepEqual(got, one) {
		t.Fatalf("%.200q:\nin memory %+v, %v\nstreamed  %+v, %v", data, got, err, one, oerr)
	}
	werr, valid := refPick(data, pickFields(&want))
	if !valid {
		// Pick is lenient only inside strings it skips: a raw control
		// character or a bad escape there.
		if err != ErrSyntax && !bytes.ContainsFunc(data, func(r rune) bool { return r < 0x20 || r == '\\' }) {
			t.Fatalf("%.200q: encoding/json refuses it, Pick reads %+v, %v", data, got, err)
		}
		return
	}
	if err != werr || !reflect.DeepEqual(got, want) {
		t.Fatalf("%.200q:\nPick          %+v, %v\nencoding/json %+v, %v", data, got, err, want, werr)
	}
}

var pickCases = []string{
	`{}`, ` { } `, `{"s":"a","i":5,"f":1.5,"b":true,"l":["x","y"],"r":{"k":[1,2]},"e":{},"o":{"s":"t","i":-3,"b":false,"r":"q","p":{"q":{"s":"deep"}}}}`,
	`{"s":5,"i":"5","f":"x","b":1,"l":"x","o":[],"e":[]}`,
	`{"i":1.5}`, `{"i":1e3}`, `{"i":9223372036854775808}`, `{"i":-9223372036854775808}`, `{"f":1e400}`, `{"i":-0}`,
	`{"s":"a","s":null}`, `{"s":"a","s":7}`, `{"o":{"s":"a","i":1},"o":{"i":2}}`, `{"o":{"s":"a"},"o":null}`, `{"o":{"s":"a"},"o":5}`,
	`{"s":"\u00e9\n\"\\\/\b\f\r\t\u0041"}`, `{"s":"\ud83d\ude00 \ud83d x \ude00 \ud83d\u0041"}`, "{\"s\":\"\xff\xfe ok\"}",
	`{"s":"\x"}`, "{\"s\":\"\x01\"}", "{\"x\":\"\x01\"}", `{"x":"\q"}`,
	`{"o":{"s":"` + strings.Repeat("z", 11) + `"}}`, `{"o":{"s":"` + strings.Repeat("z", 20) + `"}}`,
	`{"l":["` + strings.Repeat("a", 30) + `"]}`, `{"l":["a",1,"` + strings.Repeat("a", 30) + `"]}`, `{"l":["` + strings.Repeat("a", 30) + `",1]}`, `{"l":[]}`, `{"l":[null]}`,
	`{"r":"` + strings.Repeat("a", 50) + `"}`, `{"r":[1,{"a":[true,false,null]}],"s":"after"}`,
	`{"s\u002e":1}`, `{"\u0073":"escaped key"}`, `{"o.s":"dotted"}`, `{"S":"folded"}`,
	`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":.5}`, `{"a":1e}`, `{"a":tru}`, `{"a":nul}`, `{"a" 1}`, `{"a":1,}`, `{"a":[1,]}`, `{,}`,
	`{"a":{"b" "c"}}`, `{"a":[1 2]}`, `{"a":{"b":1]}`, `{"a":1}x`, `{"a":1} `, `[]`, `null`, `"s"`, ``, `{`, `{"a":"`,
	`{"a":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
	`{"a":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`,
	`{"a":` + strings.Repeat(`{"b":`, 9999) + `1` + strings.Repeat("}", 9999) + `}`,
}

func TestPick(t *testing.T) {
	for _, c := range pickCases {
		checkPick(t, []byte(c))
	}
	var d picked
	if err := NewPick(pickFields(&d)...).Decode([]byte(pickCases[2])); err != nil || d.Deep != "deep" || d.OI != -3 ||
		string(d.R) != `{"k":[1,2]}` || !reflect.DeepEqual(d.L, []string{"x", "y"}) || d.O != Found || d.E != Found {
		t.Errorf("the full case read as %+v, %v", d, err)
	}
}

// FuzzPick checks Pick against encoding/json, seeded with the cases
// above and the real transcripts' lines.
func FuzzPick(f *testing.F) {
	for _, c := range pickCases {
		f.Add([]byte(c))
	}
	lines, _ := realSeeds(f, 4<<10)
	for i, l := range lines {
		if i%4 == 0 {
			f.Add(l)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkPick(t, data)
	})
}
