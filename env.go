package ordermsg

import (
	"net/http"
	"os"
	"strings"
)

// The environment variables that NewClientFromEnv reads. The command-line
// tool and the examples read the same ones.
const (
	// EnvBaseURL holds the service's base URL, NewClient's baseURL.
	EnvBaseURL = "ORDERMSG_BASE_URL"
	// EnvAPIKey holds the API key, NewClient's apiKey.
	EnvAPIKey = "ORDERMSG_API_KEY"
	// EnvVersionHeader holds the version header as "Name: value", such as
	// "Acme-Api-Version: 1" (ParseVersionHeader reads it). Unset or empty,
	// the client sends DefaultVersionHeader: DefaultAPIVersion.
	EnvVersionHeader = "ORDERMSG_VERSION_HEADER"
)

// NewClientFromEnv returns a client made from the environment, as
// openai-go reads OPENAI_API_KEY: NewClient with the base URL of
// EnvBaseURL, the key of EnvAPIKey and, when EnvVersionHeader is set, the
// version header it holds, then the caller's opts, which apply after the
// environment's (a WithVersionHeader among them wins over EnvVersionHeader).
//
// An unset or empty EnvBaseURL or EnvAPIKey is an error that names the
// variable; an EnvVersionHeader that ParseVersionHeader refuses is a
// *VersionHeaderError whose Source is EnvVersionHeader. Every other error is
// NewClient's. They all match ErrInvalidArgument, and none shows the key or
// the header's value.
func NewClientFromEnv(opts ...Option) (*Client, error) {
	baseURL, apiKey := os.Getenv(EnvBaseURL), os.Getenv(EnvAPIKey)
	var unset []string
	if baseURL == "" {
		unset = append(unset, EnvBaseURL)
	}
	if apiKey == "" {
		unset = append(unset, EnvAPIKey)
	}
	switch len(unset) {
	case 1:
		return nil, invalidArgument("NewClientFromEnv: %s is empty or not set", unset[0])
	case 2:
		return nil, invalidArgument("NewClientFromEnv: %s and %s are empty or not set", unset[0], unset[1])
	}
	// Without the variable, a 400 that may be about the version header says
	// to set the variable, not the option.
	fromEnv := []Option{func(s *settings) error {
		s.versionHint = versionHeaderHint("in " + EnvVersionHeader + ` ("Name: value")`)
		return nil
	}}
	if header := os.Getenv(EnvVersionHeader); header != "" {
		name, value, reason := parseVersionHeader(header)
		if reason != "" {
			return nil, &VersionHeaderError{Source: EnvVersionHeader, Reason: reason}
		}
		fromEnv = append(fromEnv, WithVersionHeader(name, value))
	}
	return NewClient(baseURL, apiKey, append(fromEnv, opts...)...)
}

// ParseVersionHeader reads a version header written "Name: value", as
// EnvVersionHeader and the command-line tool's --version-header hold it:
// the name before the first colon, the value after it, each without the
// white space around it. It returns the name in canonical form, and refuses
// a header without a colon and what CheckVersionHeader refuses, with a
// *VersionHeaderError whose Reason says what is wrong and what is wanted,
// without showing the header (it may be the key, given in the wrong place).
func ParseVersionHeader(header string) (name, value string, err error) {
	name, value, reason := parseVersionHeader(header)
	if reason != "" {
		return "", "", &VersionHeaderError{Source: "ParseVersionHeader", Reason: reason}
	}
	return name, value, nil
}

// parseVersionHeader is ParseVersionHeader, with what is wrong as a
// VersionHeaderError's Reason ("" when nothing is).
func parseVersionHeader(header string) (name, value, reason string) {
	const want = `want "Name: value" with the name your API documentation gives, such as "Acme-Api-Version: 1"`
	name, value, found := strings.Cut(header, ":")
	if !found {
		return "", "", "no colon: " + want
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if reason := versionHeaderProblem(name, value); reason != "" {
		return "", "", reason + "; " + want
	}
	return http.CanonicalHeaderKey(name), value, ""
}
