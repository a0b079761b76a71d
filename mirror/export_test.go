package mirror

import "fmt"

// DescribedColumns is the description of the schema's tables (tables.go),
// for the tests: by table, each column as "name type NOT NULL" (or "name
// type NULL"), in order, with the type as the backend's catalog names it
// (SQLite: the declared type; PostgreSQL: information_schema's data_type).
func DescribedColumns(b Backend) map[string][]string {
	names := map[colType][2]string{
		typeInteger: {"INTEGER", "integer"},
		typeBigint:  {"BIGINT", "bigint"},
		typeText:    {"TEXT", "text"},
		typeJSON:    {"TEXT", "json"},
		typeBytes:   {"BLOB", "bytea"},
		typeTime:    {"TEXT", "timestamp with time zone"},
		typeStamp:   {"TEXT", "timestamp with time zone"},
	}
	out := map[string][]string{}
	for _, t := range schemaTables(b) {
		for _, c := range t.columns {
			null := "NULL"
			if c.notNull {
				null = "NOT NULL"
			}
			typ := names[c.typ][0]
			if b == PostgreSQL {
				typ = names[c.typ][1]
			}
			out[t.name] = append(out[t.name], fmt.Sprintf("%s %s %s", c.name, typ, null))
		}
	}
	return out
}

// OnLeaseWait has f called each time a run finds the lease it wants held
// by another (SQLite), until the test ends.
func OnLeaseWait(t interface{ Cleanup(func()) }, f func()) {
	leaseWaited = f
	t.Cleanup(func() { leaseWaited = nil })
}

// RecordChanges sets whether writers record changes, until the test (or
// benchmark) ends: off only to measure what recording them costs.
func RecordChanges(t interface{ Cleanup(func()) }, on bool) {
	recordsChanges = on
	t.Cleanup(func() { recordsChanges = true })
}
