package main

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"golang.org/x/net/http/httpguts"
)

// defaultVersionHeader is the version header as the API's documentation
// writes it; the real name is the maker's.
const defaultVersionHeader = ordermsgtest.VersionHeader + ": " + ordermsgtest.APIVersion

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

// parse returns the header's name (canonical) and value, from the flag,
// else the environment, else defaultVersionHeader. A value that is not
// "Name: value", with an HTTP token as the name (not one the client sets
// itself) and a non-empty value, is a usage error naming the flag or the
// environment variable.
func (f *headerFlag) parse() (name, value string, err error) {
	raw := f.value
	switch {
	case f.fromCLI:
	case f.envValue != "":
		raw = f.envValue
	default:
		raw = defaultVersionHeader
	}
	name, value, found := strings.Cut(raw, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if found && httpguts.ValidHeaderFieldName(name) && value != "" && httpguts.ValidHeaderFieldValue(value) {
		switch name = http.CanonicalHeaderKey(name); name {
		case "Authorization", "Accept", "User-Agent", "Host":
		default:
			return name, value, nil
		}
	}
	source := fmt.Sprintf("--version-header %q", raw)
	if !f.fromCLI {
		source = fmt.Sprintf("%s=%q", f.env, raw)
	}
	return "", "", usagef(`%s: want "Name: value", the version header the API's documentation names, such as "Acme-Api-Version: 1" (not Authorization, Accept, User-Agent or Host)`, source)
}
