package mirror

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
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
