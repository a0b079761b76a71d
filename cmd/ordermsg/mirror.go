package main

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL, driver "pgx"
	"github.com/ordermsg/ordermsg-go/internal/secretmask"
	"github.com/ordermsg/ordermsg-go/mirror"
	_ "modernc.org/sqlite" // pure Go: no cgo, so go install works anywhere
)

// mirrorTarget is the database of sync --db: a SQLite file or a PostgreSQL
// URL.
type mirrorTarget struct {
	backend mirror.Backend
	driver  string
	dsn     string
	// name is the target as messages show it: the path, or the URL with
	// its password masked.
	name string
	// secrets are the strings that must never show, in any spelling (see
	// secretmask): the URL's password.
	secrets []string
}

// dbTakes says what --db takes, for the messages that refuse a target.
const dbTakes = "--db takes a SQLite file path or a postgres:// or postgresql:// URL"

// libpqDSN matches a PostgreSQL keyword=value connection string: one that
// starts with a libpq keyword and =, or sets a password anywhere.
var libpqDSN = regexp.MustCompile(`(?i)^\s*(host|hostaddr|port|dbname|user|password|passfile|sslmode|service|connect_timeout|application_name|options)\s*=|\bpassword\s*=`)

// parseTarget reads --db: a postgres:// or postgresql:// URL, the scheme in
// any case, else a file path. Any other scheme:// target, a URL that does not
// parse and a keyword=value connection string are refused without repeating
// them: they may hold a password.
func parseTarget(target string) (*mirrorTarget, error) {
	scheme, rest, isURL := strings.Cut(target, "://")
	if !isURL {
		if libpqDSN.MatchString(target) {
			return nil, usagef("--db: a keyword=value connection string is not taken (it is not repeated here, for it may hold a password); %s", dbTakes)
		}
		return sqliteTarget(target)
	}
	scheme = strings.ToLower(scheme)
	if scheme != "postgres" && scheme != "postgresql" {
		return nil, usagef("--db: not a postgres:// or postgresql:// URL (it is not repeated here, for it may hold a password); %s", dbTakes)
	}
	// pgx knows the scheme in lower case only.
	target = scheme + "://" + rest
	u, err := url.Parse(target)
	if err != nil {
		return nil, usagef("--db: not a valid %s:// URL (it is not repeated here, for it may hold a password)", scheme)
	}
	t := &mirrorTarget{backend: mirror.PostgreSQL, driver: "pgx", dsn: target, name: u.Redacted()}
	if pw, ok := u.User.Password(); ok && pw != "" {
		t.secrets = append(t.secrets, pw)
	}
	q := u.Query()
	for _, key := range []string{"password", "sslpassword"} {
		for _, v := range q[key] {
			if v != "" {
				t.secrets = append(t.secrets, v)
			}
		}
	}
	if len(q["password"])+len(q["sslpassword"]) > 0 {
		q.Set("password", "xxxxx")
		q.Del("sslpassword")
		u.RawQuery = q.Encode()
		t.name = u.Redacted()
	}
	return t, nil
}

// sqliteTarget is the SQLite database at path: a file: URI, so that no
// character of the name is taken for a parameter, with a busy timeout and
// synchronous=NORMAL, which in WAL mode (mirror.Open switches the file)
// loses no commit when the process is killed. A path that is there and is
// not a file (through its symlinks) is refused: SQLite would put its
// journal and WAL files beside a device (/dev/null-wal).
func sqliteTarget(path string) (*mirrorTarget, error) {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return nil, &localFailure{fmt.Errorf("--db %s is not a file (a folder, a device, a FIFO): a SQLite database is a file, made if missing", path)}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dsn := (&url.URL{Scheme: "file", Path: abs}).String() +
		"?_pragma=busy_timeout(30000)&_pragma=synchronous(NORMAL)"
	return &mirrorTarget{backend: mirror.SQLite, driver: "sqlite", dsn: dsn, name: path}, nil
}

// open opens the database; nothing is connected before the first use.
func (t *mirrorTarget) open() (*sql.DB, error) {
	db, err := sql.Open(t.driver, t.dsn)
	return db, t.hide(err)
}

// hide is err with every secret of the target masked; nil stays nil.
func (t *mirrorTarget) hide(err error) error {
	if err == nil || len(t.secrets) == 0 {
		return err
	}
	return &maskedError{err: err, mask: secretmask.New(t.secrets...)}
}

// hideWith is err with every secret of the target masked, and the given
// ones too (an API key, which a server may quote); nil stays nil.
func (t *mirrorTarget) hideWith(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	return &maskedError{err: err, mask: secretmask.New(append(secrets, t.secrets...)...)}
}

// keySecrets are the secrets to mask for an API key: the key, which the
// mask finds in every spelling that decodes to it (the credentials of
// HTTP Basic authentication that carry it among them), when it has
// minMaskedKey bytes or more. A shorter key is not masked anywhere: its
// spellings would garble ordinary text.
func keySecrets(key string) []string {
	if len(key) < minMaskedKey {
		return nil
	}
	return []string{key}
}

// minMaskedKey is the length from which an API key is masked; the SDK
// refuses a base URL that holds a key from the same length on.
const minMaskedKey = 8

// maskedError is an error whose text never shows the secrets (a driver's
// message may quote the URL it was given, a server's the key).
type maskedError struct {
	err  error
	mask *secretmask.Mask
}

func (e *maskedError) Error() string { return e.mask.Text(e.err.Error()) }

// Unwrap lets errors.Is see the cause; its text is the masked one above
// whenever the error is printed through this type.
func (e *maskedError) Unwrap() error { return e.err }

// Format prints the masked text for every verb, so that %+v of a wrapping
// error does not reach the cause's own text.
func (e *maskedError) Format(f fmt.State, _ rune) { fmt.Fprint(f, e.Error()) }

// isDatabaseError reports whether err came from the database rather than
// the API.
func isDatabaseError(err error) bool { return errors.Is(err, mirror.ErrDatabase) }

// forCLI is err as the command shows it: the errors of the mirror that
// name a Go option (a website mirrored from another base URL, a reconcile
// that would delete too much) name the flag instead; any other error is
// err.
func forCLI(err error) error {
	var se *mirror.SourceError
	var md *mirror.MassDeleteError
	switch {
	case errors.As(err, &se):
		return &sourceFailure{se}
	case errors.As(err, &md):
		return &massDeleteFailure{err: err, md: md}
	}
	return err
}

// sourceFailure is a *mirror.SourceError in the command's words.
type sourceFailure struct{ err *mirror.SourceError }

func (e *sourceFailure) Error() string {
	return fmt.Sprintf("website %d is mirrored from %s, not from %s: a mirror keeps one source per website, "+
		"so that the records of two services never mix; if the service really moved to %s, run once with --base-url-moved",
		e.err.WebsiteID, e.err.Recorded, e.err.Given, e.err.Given)
}

// Unwrap lets errors.Is see mirror.ErrOtherSource.
func (e *sourceFailure) Unwrap() error { return e.err }

// massDeleteFailure is err, which holds md (perhaps beside the other
// table's error), in the command's words.
type massDeleteFailure struct {
	err error
	md  *mirror.MassDeleteError
}

func (e *massDeleteFailure) Error() string {
	return strings.Replace(e.err.Error(), e.md.Error(), fmt.Sprintf("the reconcile of website %d's %s found %d of its %d live %s gone, "+
		"more than 10%% and more than 10: none was marked deleted, since a listing cut short or a key that reaches another website "+
		"looks the same; if the server really deleted them, run once with --allow-mass-delete",
		e.md.WebsiteID, e.md.Resource, e.md.Deleting, e.md.Live, e.md.Resource), 1)
}

// Unwrap lets errors.Is see mirror.ErrMassDelete.
func (e *massDeleteFailure) Unwrap() error { return e.err }
