package mirror_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/ordermsg/ordermsg-go/mirror"
)

// otherDriver is a PostgreSQL driver that is not pgx's: pgx's connections,
// each behind a type of its own.
type otherDriver struct{ url string }

func (d otherDriver) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := stdlib.GetDefaultDriver().Open(d.url)
	return otherConn{c}, err
}

func (d otherDriver) Driver() driver.Driver { return stdlib.GetDefaultDriver() }

type otherConn struct{ driver.Conn }

// A PostgreSQL database opened with another driver than pgx's is refused by
// Open, which says what to open it with, and is left as it was: the mirror
// writes with pgx's COPY, one write path.
func TestOpenRefusesAPostgreSQLDriverOtherThanPgx(t *testing.T) {
	be := postgresBackend(t)
	target := be.New(t)
	db := sql.OpenDB(otherDriver{target})
	defer db.Close()
	m, err := mirror.Open(context.Background(), db, mirror.PostgreSQL)
	if m != nil || err == nil || !strings.Contains(err.Error(), "github.com/jackc/pgx/v5/stdlib") || !errors.Is(err, mirror.ErrDatabase) {
		t.Fatalf("Open: %v, %v; want an error naming pgx's driver", m, err)
	}
	var tables int
	if err := be.Open(t, target).QueryRow("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()").Scan(&tables); err != nil || tables != 0 {
		t.Errorf("%d tables made, %v", tables, err)
	}
}
