package mirror

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// postgresOps are PostgreSQL's operations (see backendOps).
type postgresOps struct{}

// rebind numbers the placeholders: $1, $2...
func (postgresOps) rebind(query string) string {
	var out strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			fmt.Fprintf(&out, "$%d", n)
			continue
		}
		out.WriteRune(r)
	}
	return out.String()
}

// checkDriver refuses a driver other than pgx's, whose COPY the mirror
// writes with (copy.go).
func (postgresOps) checkDriver(conn *sql.Conn) error { return usesPgx(conn) }

// prepare has nothing to do.
func (postgresOps) prepare(context.Context, *sql.Conn) error { return nil }

// leaseConns is 0: the holds are advisory locks of the session.
func (postgresOps) leaseConns() int { return 0 }

// oneWriter is false: writers write at once.
func (postgresOps) oneWriter() bool { return false }

// hold takes the advisory lock of h, of conn's session. Its release ends
// the session when the lock cannot be let go otherwise.
func (postgresOps) hold(ctx context.Context, _ *Mirror, conn *sql.Conn, h holding, wait bool) (func() bool, error) {
	key := h.advisoryKey()
	if wait {
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
			return nil, err
		}
	} else {
		var held bool
		if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&held); err != nil || !held {
			return nil, err
		}
	}
	return func() bool {
		if _, err := conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", key); err != nil {
			// The lock belongs to the session: end it rather than return
			// it to the pool still locked.
			endSession(conn)
			return true
		}
		return false
	}, nil
}

// advisoryKey is the key of h's advisory lock.
func (h holding) advisoryKey() int64 {
	if h.resource == fleetLease {
		return advisoryKey(fmt.Sprintf("ordermsg mirror fleet website %d", h.site))
	}
	return advisoryKey(fmt.Sprintf("ordermsg mirror %s of website %d", h.resource, h.site))
}

// onSession is true: an advisory lock belongs to its session.
func (postgresOps) onSession() bool { return true }

// idleEnds is true: the server may end an idle session.
func (postgresOps) idleEnds() bool { return true }

// begin starts a transaction.
func (postgresOps) begin() string { return "BEGIN" }

// tableExists reads information_schema, in the current schema.
func (postgresOps) tableExists() string {
	return "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1"
}

// jsonArg is the bytes as they are.
func (postgresOps) jsonArg(v []byte) any { return v }

// timeArg is the time in UTC, which timestamptz keeps.
func (postgresOps) timeArg(_ colType, v time.Time) any { return v.UTC() }

// walk is a lateral join of json_array_elements or json_each.
func (postgresOps) walk(w each) string {
	want, fn, names := "array", "json_array_elements", "(value)"
	if w.object {
		want, fn, names = "object", "json_each", "(key, value)"
	}
	at := w.parent + " #> '" + pgPath(w.path) + "'"
	return fmt.Sprintf("\nCROSS JOIN LATERAL %s(CASE WHEN json_typeof(%s) = '%s' THEN %s END) AS %s%s", fn, at, want, at, w.alias, names)
}

// jsonColumn reads c's path with #>> and casts it to c's kind.
func (postgresOps) jsonColumn(c col) string {
	e := c.element + ".value"
	at := e + " #>> '" + pgPath(c.path) + "'"
	switch c.kind {
	case colInt:
		return "CAST(" + at + " AS BIGINT)"
	case colReal:
		return "CAST(" + at + " AS NUMERIC)" // exact, and any JSON number fits (a double does not hold 1e-400)
	case colBool:
		return "CAST(" + at + " AS BOOLEAN)"
	case colRef:
		obj := e + " #> '" + pgPath(c.path) + "'"
		return fmt.Sprintf("NULLIF(CAST(CASE WHEN json_typeof(%s) = 'object' THEN %s ELSE %s END AS BIGINT), 0)",
			obj, e+" #>> '"+pgPath(c.path+".id")+"'", at)
	case colJSON:
		return "CAST(" + e + " #> '" + pgPath(c.path) + "' AS TEXT)"
	case colTime:
		// An RFC 3339 time that PostgreSQL cannot hold (year 0000, an
		// offset beyond 15:59) is NULL rather than an error of the view.
		return fmt.Sprintf("CASE WHEN %s ~ '%s' AND %s NOT LIKE '0000%%' THEN CAST(%s AS timestamptz) END", at, pgTime, at, at)
	}
	return at
}

// pgTime matches the RFC 3339 times that PostgreSQL reads as timestamptz
// (but for year 0000).
const pgTime = `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-](0[0-9]|1[0-5]):[0-9]{2})$`

// pgPath is a dotted path as a PostgreSQL text array: a.b is {a,b}.
func pgPath(dotted string) string { return "{" + strings.ReplaceAll(dotted, ".", ",") + "}" }

// ownTables are none.
func (postgresOps) ownTables() []tableDef { return nil }

// insert writes the rows with one COPY (copy.go).
func (postgresOps) insert(ctx context.Context, w *writer, rows [][]any) error {
	err := copyRows(ctx, w.conn, w.t.name, w.writtenColumns(), rows)
	if isUniqueViolation(err) {
		return fmt.Errorf("%w: %w", errHeld, err)
	}
	return err
}
