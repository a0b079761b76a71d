package mirror

import (
	"database/sql/driver"
	"hash/fnv"
	"strconv"
	"time"
)

// Backend is the kind of database a Mirror writes to. The tables, views and
// behaviour are the same in both; only the SQL that makes them differs.
type Backend int

// The databases a Mirror can write to.
const (
	// SQLite, through any database/sql driver of it (modernc.org/sqlite is
	// pure Go); version 3.38 or later, for the JSON functions and upserts.
	SQLite Backend = iota + 1
	// PostgreSQL, through github.com/jackc/pgx/v5/stdlib (driver "pgx"),
	// whose COPY the mirror writes with; version 12 or later.
	PostgreSQL
)

// String names the backend.
func (b Backend) String() string {
	switch b {
	case SQLite:
		return "SQLite"
	case PostgreSQL:
		return "PostgreSQL"
	}
	return "Backend(" + strconv.Itoa(int(b)) + ")"
}

// valid reports whether b is one of the constants.
func (b Backend) valid() bool { return b.ops() != nil }

// rebind turns the ? placeholders of query into the backend's.
func (b Backend) rebind(query string) string { return b.ops().rebind(query) }

// begin is the statement that starts a write transaction (see sqlOps).
func (b Backend) begin() string { return b.ops().begin() }

// tableExists is a query of one row whose count is 1 when the table (its
// name the argument) exists.
func (b Backend) tableExists() string { return b.ops().tableExists() }

// advisoryKey is the key of PostgreSQL's advisory lock of the given name:
// the name's 64-bit FNV-1a hash.
func advisoryKey(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int64(h.Sum64())
}

// errBadConn makes database/sql drop a connection rather than reuse it.
var errBadConn = driver.ErrBadConn

// value is v as the argument of a column of type typ: a time.Time as the
// column keeps it (see typeTime and typeStamp), JSON's bytes as the
// backend takes them, anything else as it is.
func (b Backend) value(typ colType, v any) any {
	switch t := v.(type) {
	case []byte:
		if typ == typeJSON {
			return b.ops().jsonArg(t)
		}
	case time.Time:
		return b.ops().timeArg(typ, t)
	}
	return v
}

// sqliteText is bytes that SQLite stores as TEXT, as a string, which its
// drivers bind as text where they bind bytes as a BLOB. The string is made
// as the statement is run, so that a batch waiting to be written holds the
// bytes only once.
type sqliteText []byte

// Value is the bytes as a string.
func (t sqliteText) Value() (driver.Value, error) { return string(t), nil }
