package ordermsg

import (
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// This file holds a small reader for JSON objects, for the types whose key
// order or raw bytes matter (form fields) and that are decoded often enough
// that a second pass of encoding/json shows in a profile. It trusts nothing:
// every index is bounds-checked and malformed input gives errMalformed.

var errMalformed = errors.New("ordermsg: malformed JSON")

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// eachMember calls fn with each key and raw value of the JSON object in data,
// in the order they appear. It stops at the first error fn returns.
func eachMember(data []byte, fn func(key, value []byte) error) error {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return errMalformed
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return trailing(data, i+1)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return errMalformed
		}
		keyEnd, err := skipString(data, i)
		if err != nil {
			return err
		}
		key := data[i:keyEnd]
		i = skipSpace(data, keyEnd)
		if i >= len(data) || data[i] != ':' {
			return errMalformed
		}
		i = skipSpace(data, i+1)
		valueEnd, err := skipValue(data, i)
		if err != nil {
			return err
		}
		if err := fn(key, data[i:valueEnd]); err != nil {
			return err
		}
		i = skipSpace(data, valueEnd)
		if i >= len(data) {
			return errMalformed
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return trailing(data, i+1)
		default:
			return errMalformed
		}
	}
}

func trailing(data []byte, i int) error {
	if skipSpace(data, i) != len(data) {
		return errMalformed
	}
	return nil
}

// skipString returns the index just past the string that starts at data[i].
func skipString(data []byte, i int) (int, error) {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errMalformed
}

// skipValue returns the index just past the JSON value that starts at data[i].
func skipValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, errMalformed
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, err := skipString(data, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errMalformed
	default:
		j := i
		for j < len(data) && !isSpace(data[j]) && data[j] != ',' && data[j] != '}' && data[j] != ']' {
			j++
		}
		if j == i {
			return 0, errMalformed
		}
		return j, nil
	}
}

// decodeString returns the JSON string literal raw as a Go string. The common
// case, no escapes and valid UTF-8, is a plain copy; anything else is left to
// encoding/json so that escapes and invalid bytes are handled exactly as it
// handles them.
func decodeString(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", errMalformed
	}
	body := raw[1 : len(raw)-1]
	plain := true
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return string(body), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}
