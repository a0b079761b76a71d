package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/pflag"
)

// flagError returns err, an error of the command line's parsing (pflag's or
// cobra's), in the tool's words: a value a flag cannot take says what the
// flag wants, without strconv's or Go's type names.
func flagError(err error) error {
	var invalid *pflag.InvalidValueError
	if !errors.As(err, &invalid) {
		return err
	}
	f := invalid.GetFlag()
	want := flagWants[f.Name]
	if want == "" {
		want = typeWants[f.Value.Type()]
	}
	if want == "" {
		want = "see --help"
	}
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("--%s %q: out of range: want %s", f.Name, invalid.GetValue(), want)
	}
	return fmt.Errorf("--%s %q: want %s", f.Name, invalid.GetValue(), want)
}

// flagWants is what a flag takes, for the flags whose range is the same in
// every command; the others say what their type takes (typeWants).
var flagWants = map[string]string{
	"website": "a positive integer, the website's id",
}

// typeWants is what a flag of each of pflag's types takes.
var typeWants = map[string]string{
	"int":         "a whole number, such as 10",
	"int8":        "a whole number, such as 10",
	"int16":       "a whole number, such as 10",
	"int32":       "a whole number, such as 10",
	"int64":       "a whole number, such as 10",
	"uint":        "a whole number, 0 or more",
	"uint8":       "a whole number, 0 or more",
	"uint16":      "a whole number, 0 or more",
	"uint32":      "a whole number, 0 or more",
	"uint64":      "a whole number, 0 or more",
	"float32":     "a number, such as 0.5",
	"float64":     "a number, such as 0.5",
	"duration":    "a duration, such as 30s, 1m30s or 500ms",
	"bool":        "true or false",
	"stringSlice": "names separated by commas",
}
