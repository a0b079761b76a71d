package main

import (
	"errors"
	"net/http"
	"strings"

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
// else the environment, else defaultVersionHeader. A value that is not
// "Name: value", or that the SDK refuses (ordermsg.CheckVersionHeader: a
// name that is not an HTTP token or that HTTP or the client owns, an empty
// value), is a usage error that names the flag or the environment variable
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
	const want = `want "Name: value" with the name your API documentation gives, such as "Acme-Api-Version: 1"`
	name, value, found := strings.Cut(raw, ":")
	if !found {
		return "", "", usagef("%s: no colon: %s", source, want)
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if err := ordermsg.CheckVersionHeader(name, value); err != nil {
		var vh *ordermsg.VersionHeaderError
		if !errors.As(err, &vh) {
			return "", "", &usageError{err}
		}
		return "", "", usagef("%s: %s; %s", source, vh.Reason, want)
	}
	return http.CanonicalHeaderKey(name), value, nil
}
