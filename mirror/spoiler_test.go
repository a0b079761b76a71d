package mirror_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// spoil is a change of a record as the server sends it: the first
// occurrence of find in its JSON becomes replace.
type spoil struct{ find, replace string }

// at is the spoil that puts text, JSON string content such as `\u0000` or
// `\ud800`, at the start of the first string member named member, at any
// depth (the first "title" of an order is its first item's or its portal's).
func at(member, text string) spoil {
	return spoil{`"` + member + `":"`, `"` + member + `":"` + text}
}

// spoiler is a handler in front of the fake that puts spoils into chosen
// records of its answers, in lists and retrieves alike, leaving every other
// byte as the fake sent it, but for the origin of file links when pinned.
type spoiler struct {
	next http.Handler
	// files, when set, is the origin of the fake's file links, which the
	// spoiler replaces with pinnedFiles: the links of a record read from
	// two fakes (one that made a database of testdata, one of the test)
	// then differ only where the server signs them.
	files string

	mu     sync.Mutex
	spoils map[int64][]spoil // by record id (orders and messages share the fake's ids)
	done   map[int64]int     // records spoiled, with how many times
}

// pinnedFiles is the origin of the file links of a pinned spoiler.
const pinnedFiles = "https://files.example"

// newSpoiler serves next through a spoiler on a loopback port of its own,
// and returns the spoiler and its URL.
func newSpoiler(t testing.TB, next http.Handler) (*spoiler, string) {
	t.Helper()
	s := &spoiler{next: next, spoils: map[int64][]spoil{}, done: map[int64]int{}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// set makes the record with the given id carry spoils from now on (none:
// as the fake sends it).
func (s *spoiler) set(id int64, spoils ...spoil) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spoils[id] = spoils
}

// times is how many answers carried the record with the given id spoiled.
func (s *spoiler) times(id int64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done[id]
}

func (s *spoiler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	s.next.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	if rec.Code == http.StatusOK && strings.HasPrefix(r.URL.Path, "/websites/") {
		body = s.rewrite(body)
		if s.files != "" {
			body = bytes.ReplaceAll(body, []byte(`"`+s.files+`/`), []byte(`"`+pinnedFiles+`/`))
		}
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	w.Write(body)
}

// rewrite spoils the records of a list or a retrieve's record, in place:
// every other byte stays the fake's.
func (s *spoiler) rewrite(body []byte) []byte {
	var list struct {
		Object string            `json:"object"`
		Data   []json.RawMessage `json:"data"`
	}
	if json.Unmarshal(body, &list) != nil {
		return body
	}
	if list.Object != "list" {
		return s.spoilRecord(body)
	}
	for _, rec := range list.Data {
		body = bytes.Replace(body, rec, s.spoilRecord(rec), 1)
	}
	return body
}

// spoilRecord applies the spoils of rec's id to rec.
func (s *spoiler) spoilRecord(rec []byte) []byte {
	var head struct {
		ID int64 `json:"id"`
	}
	json.Unmarshal(rec, &head)
	s.mu.Lock()
	defer s.mu.Unlock()
	spoils := s.spoils[head.ID]
	if len(spoils) == 0 {
		return rec
	}
	out := bytes.Clone(rec)
	for _, sp := range spoils {
		out = bytes.Replace(out, []byte(sp.find), []byte(sp.replace), 1)
	}
	s.done[head.ID]++
	return out
}
