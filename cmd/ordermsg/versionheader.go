package main

import (
	"errors"

	"github.com/ordermsg/ordermsg-go"
)

// defaultVersionHeader is the version header as the API's documentation
// writes it, the SDK's default; the real name is the maker's.
const defaultVersionHeader = ordermsg.DefaultVersionHeader + ": " + ordermsg.DefaultAPIVersion

// headerFlag is --version-header "Name: value", whose default is envValue,
// the value of the environment variable env (kept out of the flag's value,
// so that the help does not show it as the default). It is checked by
// parse, when the command needs it, so that the message can say where the
// value came from.
type headerFlag struct {
	env, envValue string
	value         string
	fromCLI       bool
}

func (f *headerFlag) String() string { return f.value }
func (f *headerFlag) Type() string   { return "header" }

func (f *headerFlag) Set(v string) error {
	f.value, f.fromCLI = v, true
	return nil
}

// fromEnvironment reports whether parse reads the header from the
// environment variable: no flag, and the variable set.
func (f *headerFlag) fromEnvironment() bool { return !f.fromCLI && f.envValue != "" }

// parse returns the header's name (canonical) and value, from the flag,
// else the environment, else defaultVersionHeader, read as the SDK reads
// ordermsg.EnvVersionHeader (ordermsg.ParseVersionHeader). A header it
// refuses is a usage error that names the flag or the environment variable
// and says what is wrong, without showing the value: it may be the API key,
// given in the wrong place.
func (f *headerFlag) parse() (name, value string, err error) {
	raw, source := defaultVersionHeader, "the default version header"
	switch {
	case f.fromCLI:
		raw, source = f.value, "--version-header"
	case f.fromEnvironment():
		raw, source = f.envValue, f.env
	}
	name, value, err = ordermsg.ParseVersionHeader(raw)
	if vh := (*ordermsg.VersionHeaderError)(nil); errors.As(err, &vh) {
		return "", "", usagef("%s: %s", source, vh.Reason)
	}
	if err != nil {
		return "", "", &usageError{err}
	}
	return name, value, nil
}
