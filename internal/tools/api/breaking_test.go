package main

import (
	"strings"
	"testing"
)

func contains(s, sub string) bool { return strings.Contains(s, sub) }

const changelogHead = "# Changelog\n\n## [Unreleased]\n\n### Added\n\n- `WithThing`.\n\n"

func TestBreaking(t *testing.T) {
	released := record{"ordermsg.txt": {
		"pkg github.com/ordermsg/ordermsg-go, func NewClient(string, string, ...Option) (*Client, error)",
		"pkg github.com/ordermsg/ordermsg-go, method (*Client) Get(context.Context, string) error",
		"pkg github.com/ordermsg/ordermsg-go, type Options struct, Count int",
		"pkg github.com/ordermsg/ordermsg-go, type Options struct, Page int",
	}}
	unchanged := record{"ordermsg.txt": released["ordermsg.txt"]}
	// NewClient takes another argument now: its old line is gone.
	changed := record{"ordermsg.txt": {
		"pkg github.com/ordermsg/ordermsg-go, func NewClient(string, string, int, ...Option) (*Client, error)",
		"pkg github.com/ordermsg/ordermsg-go, method (*Client) Get(context.Context, string) error",
		"pkg github.com/ordermsg/ordermsg-go, type Options struct, Count int",
		"pkg github.com/ordermsg/ordermsg-go, type Options struct, Page int",
	}}
	// Options.Count is removed.
	removed := record{"ordermsg.txt": {
		"pkg github.com/ordermsg/ordermsg-go, func NewClient(string, string, ...Option) (*Client, error)",
		"pkg github.com/ordermsg/ordermsg-go, method (*Client) Get(context.Context, string) error",
		"pkg github.com/ordermsg/ordermsg-go, type Options struct, Page int",
	}}
	release := "## [0.1.0] - 2026-01-02\n\n### Breaking changes\n\n- `Options.Count` was removed.\n- `NewClient` changed.\n"
	for _, tc := range []struct {
		name      string
		current   record
		changelog string
		problems  []string // each problem's identifier, in order
	}{
		{"nothing removed", unchanged, changelogHead + release, nil},
		{"added only: no line needed", record{"ordermsg.txt": append([]string{"pkg github.com/ordermsg/ordermsg-go, func New()"}, released["ordermsg.txt"]...)}, changelogHead + release, nil},
		// The test the issue asks for: a removed line, no CHANGELOG line.
		{"removed, no changelog line", removed, changelogHead + release, []string{"Options.Count"}},
		{"changed, no changelog line", changed, changelogHead + release, []string{"NewClient"}},
		{"removed, named in Unreleased", removed, changelogHead + "### Breaking changes\n\n- `Options.Count` is gone: set `Options.Page`.\n\n" + release, nil},
		{"removed, its type named", removed, changelogHead + "### Breaking changes\n\n- The `Options` fields changed.\n\n" + release, nil},
		{"removed, named under another heading", removed, changelogHead + "### Removed\n\n- `Options.Count`.\n\n" + release, []string{"Options.Count"}},
		{"removed, a sibling named", removed, changelogHead + "### Breaking changes\n\n- `Options.CountX` and `Options.Page`.\n\n" + release, []string{"Options.Count"}},
		{"removed, named in the release being made", removed, "## [Unreleased]\n\n## [0.2.0] - 2026-03-04\n\n### Breaking changes\n\n- Options.Count was removed.\n\n" + release, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems := breaking(released, tc.current, []byte(tc.changelog), "v0.1.0")
			if len(problems) != len(tc.problems) {
				t.Fatalf("problems %q, want %d", problems, len(tc.problems))
			}
			for i, id := range tc.problems {
				if !contains(problems[i], "`"+id+"`") || !contains(problems[i], "Breaking changes") {
					t.Errorf("problem %q does not ask to name `%s` under Breaking changes", problems[i], id)
				}
			}
		})
	}
}

func TestBreakingNeedsTheLastReleasesSection(t *testing.T) {
	released := record{"p.txt": {"pkg p, func A()"}}
	problems := breaking(released, record{}, []byte(changelogHead+"### Breaking changes\n\n- `A` removed.\n"), "v0.3.0")
	if len(problems) != 1 || !contains(problems[0], "no section \"## [0.3.0]\"") {
		t.Errorf("problems %q, want one saying the 0.3.0 section is missing", problems)
	}
}

func TestIdentifier(t *testing.T) {
	for feature, want := range map[string]string{
		"pkg p/q, func NewClient(string) (*Client, error)":           "NewClient",
		"pkg p/q, func NewRef[$0 interface{}](int64) Ref[$0]":        "NewRef",
		"pkg p/q, const Version ideal-string":                        "Version",
		"pkg p/q, const KindA = \"a\"":                               "KindA",
		"pkg p/q, var ErrNotFound error":                             "ErrNotFound",
		"pkg p/q, method (*Client) Get(context.Context) error":       "Client.Get",
		"pkg p/q, method (*Page[$0]) HasNextPage() bool":             "Page.HasNextPage",
		"pkg p/q, method (Timestamp) String() string":                "Timestamp.String",
		"pkg p/q, type Client struct":                                "Client",
		"pkg p/q, type Page[$0 interface{}] struct, Data []*$0":      "Page.Data",
		"pkg p/q, type Options struct, Count int":                    "Options.Count",
		"pkg p/q, type Stamp struct, embedded time.Time":             "Stamp.Time",
		"pkg p/q, type Client struct, embedded *Inner":               "Client.Inner",
		"pkg p/q, type Reader interface, Read([]uint8) (int, error)": "Reader.Read",
		"pkg p/q, type Reader interface { Read }":                    "Reader",
		"pkg p/q, type Sealed interface, unexported methods":         "Sealed",
		"pkg p/q, type Alias = Kind":                                 "Alias",
		"pkg p/q, type Kind string":                                  "Kind",
	} {
		if pkg, id := identifier(feature); pkg != "p/q" || id != want {
			t.Errorf("identifier(%q) = %q, %q; want p/q, %q", feature, pkg, id, want)
		}
	}
}
