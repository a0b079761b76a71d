package mirror_test

import (
	_ "github.com/jackc/pgx/v5/stdlib" // driver "pgx", for the PostgreSQL backend's tests
	_ "modernc.org/sqlite"             // driver "sqlite", pure Go
)
