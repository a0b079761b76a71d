package mirrortest

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

func includesOf[I ~string](all []I) string {
	names := make([]string, len(all))
	for i, v := range all {
		names[i] = string(v)
	}
	return strings.Join(names, ",")
}

// serverRecords returns every record of a resource of the website, as the
// fake sends it in a list with the mirror's includes, by id, as JSON values.
func serverRecords(t testing.TB, srv *ordermsgtest.Server, website int64, key, resource string) map[int64]any {
	t.Helper()
	includes := includesOf(mirror.OrderIncludes())
	if resource == "messages" {
		includes = includesOf(mirror.MessageIncludes())
	}
	out := map[int64]any{}
	for page := 1; ; page++ {
		q := url.Values{"direction": {"asc"}, "count": {"100"}, "page": {fmt.Sprint(page)}, "includes": {includes}}
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/websites/%d/%s?%s", srv.URL, website, resource, q.Encode()), nil)
		req.SetBasicAuth(key, "")
		req.Header.Set(ordermsgtest.VersionHeader, ordermsgtest.APIVersion)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Data []map[string]any `json:"data"`
		}
		err = json.NewDecoder(resp.Body).Decode(&list)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Data) == 0 {
			return out
		}
		for _, rec := range list.Data {
			out[int64(rec["id"].(float64))] = withoutLinks(rec)
		}
	}
}

// withoutLinks drops the url and expires of every file object in v: the
// fake signs its file links with the time of the response, so two reads of
// the same record differ there and nowhere else.
func withoutLinks(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v["object"] == "file" {
			delete(v, "url")
			delete(v, "expires")
		}
		for _, e := range v {
			withoutLinks(e)
		}
	case []any:
		for _, e := range v {
			withoutLinks(e)
		}
	}
	return v
}

// mirrored returns the live records (deleted_at NULL) of a table of the
// website, by id, as JSON values; it fails on a row whose id is not its
// JSON's.
func mirrored(t testing.TB, db *sql.DB, table string, website int64) map[int64]any {
	t.Helper()
	rows, err := db.Query(fmt.Sprintf("SELECT id, CAST(json AS TEXT) FROM %s WHERE website_id = %d AND deleted_at IS NULL", table, website))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]any{}
	for rows.Next() {
		var id int64
		var raw string
		if err := rows.Scan(&id, &raw); err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatalf("%s %d: %v", table, id, err)
		}
		if int64(v["id"].(float64)) != id {
			t.Fatalf("%s row %d holds the JSON of %v", table, id, v["id"])
		}
		out[id] = withoutLinks(v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// SameRecords fails the test unless the live records of db (those whose
// deleted_at is NULL) are exactly the records of the website of srv (read
// with its API key from srv.URL, as lists with the mirror's includes), each
// with the server's JSON (file links aside: the fake signs them with the
// time of the response).
func SameRecords(t testing.TB, db *sql.DB, srv *ordermsgtest.Server, website int64, key string) {
	t.Helper()
	for _, table := range []string{"orders", "messages"} {
		want, got := serverRecords(t, srv, website, key, table), mirrored(t, db, table, website)
		if len(got) != len(want) {
			t.Errorf("website %d's %s: the database holds %d records, the server %d", website, table, len(got), len(want))
		}
		bad := 0
		for id, w := range want {
			if g, ok := got[id]; !ok {
				t.Errorf("%s %d is missing", table, id)
				bad++
			} else if !reflect.DeepEqual(g, w) {
				t.Errorf("%s %d: stored JSON %v\nserver's %v", table, id, g, w)
				bad++
			}
			if bad > 5 {
				t.FailNow()
			}
		}
	}
}
