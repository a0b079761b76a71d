// Package mirrortest gives tests a fresh database of each backend of package
// mirror. It registers no driver: the test imports its own
// (modernc.org/sqlite as "sqlite", github.com/jackc/pgx/v5/stdlib as "pgx").
//
// The PostgreSQL backend needs a server: the environment variable
// ORDERMSG_TEST_POSTGRES holds the URL of a role that may create databases
// (.ci/postgres.sh starts a throwaway cluster and prints it). Without it the
// PostgreSQL tests skip, saying how to run them; with CI=true they fail.
package mirrortest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
)

// EnvPostgres names the environment variable with the URL of the
// PostgreSQL server for tests.
const EnvPostgres = "ORDERMSG_TEST_POSTGRES"

// Backend is a database a test runs against.
type Backend struct {
	// Name is "SQLite" or "PostgreSQL", for t.Run.
	Name    string
	Backend mirror.Backend
	// New makes a fresh, empty database, dropped when the test ends, and
	// returns its target: a file path (SQLite) or a postgres:// URL.
	New func(t testing.TB) string
	// Open opens the database at target, closed when the test ends. Each
	// call is a handle of its own, as another process's would be.
	Open func(t testing.TB, target string) *sql.DB
}

// Backends are SQLite and PostgreSQL.
func Backends() []Backend {
	return []Backend{
		{Name: "SQLite", Backend: mirror.SQLite, New: newSQLite, Open: openSQLite},
		{Name: "PostgreSQL", Backend: mirror.PostgreSQL, New: newPostgres, Open: openPostgres},
	}
}

// ForEach runs test, as a subtest named for the backend, against a fresh
// database of each backend.
func ForEach(t *testing.T, test func(t *testing.T, be Backend, target string)) {
	for _, be := range Backends() {
		t.Run(be.Name, func(t *testing.T) { test(t, be, be.New(t)) })
	}
}

func newSQLite(t testing.TB) string { return filepath.Join(t.TempDir(), "mirror.db") }

// SQLiteDSN is the modernc.org/sqlite name of the database file at path: a
// file: URI, with a busy timeout and synchronous=NORMAL (in WAL mode, which
// mirror.Open sets, no commit is lost when the process is killed).
func SQLiteDSN(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: abs}).String() +
		"?_pragma=busy_timeout(30000)&_pragma=synchronous(NORMAL)"
}

func openSQLite(t testing.TB, path string) *sql.DB {
	t.Helper()
	return open(t, "sqlite", SQLiteDSN(path))
}

func openPostgres(t testing.TB, target string) *sql.DB {
	t.Helper()
	return open(t, "pgx", target)
}

func open(t testing.TB, driver, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// PostgresURL returns the URL of the test server, or skips the test (fails
// it under CI=true) when none is set.
func PostgresURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvPostgres)
	switch {
	case u != "":
		return u
	case os.Getenv("CI") == "true":
		t.Fatalf("%s is not set: CI must run the PostgreSQL tests (.ci/run starts a server with .ci/postgres.sh)", EnvPostgres)
	}
	t.Skipf("PostgreSQL tests skipped: set %s to the URL of a server where the role may create databases, "+
		"for example: eval \"$(.ci/postgres.sh start)\" (a throwaway cluster; stop it with .ci/postgres.sh stop \"$PGTMP\")", EnvPostgres)
	return ""
}

// newPostgres creates a database of its own on the test server.
func newPostgres(t testing.TB) string {
	t.Helper()
	base := PostgresURL(t)
	admin := open(t, "pgx", base)
	// The handle lives until the test ends, to drop the database; it keeps
	// no connection open meanwhile (a benchmark makes many databases).
	admin.SetMaxIdleConns(0)
	b := make([]byte, 6)
	rand.Read(b)
	name := "mirror_test_" + hex.EncodeToString(b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating a test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("dropping the test database: %v", err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: not a URL", EnvPostgres)
	}
	u.Path = "/" + name
	return u.String()
}
