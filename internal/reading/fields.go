package reading

import (
	"bytes"
	"encoding/json"
)

// EachField calls fn with each key and raw value of the JSON object in
// data, in order, without encoding/json's reflection (whose first use
// in a process costs page faults and a fifth of a millisecond). It
// reports false when data is not one valid JSON object, when a key holds
// an escape (the caller may decode data the slow way), or when fn returns
// false.
func EachField(data []byte, fn func(key string, v []byte) bool) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 || t[0] != '{' || !json.Valid(data) {
		return false
	}
	return eachField(bytes.TrimRight(t, " \t\r\n"), fn)
}
