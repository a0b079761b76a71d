package main

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// adminPrefix begins every path of serve's admin endpoint, which adds,
// changes and deletes the fake's records on demand. No path of the API
// begins so: the fake never sees these requests.
const adminPrefix = "/_admin/"

// adminBodyLimit is the most an admin request's body may hold.
const adminBodyLimit = 4 << 10

// newAdminToken is a fresh token for the admin endpoint: 128 random bits,
// in hex.
func newAdminToken() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// withAdmin serves the admin endpoint of h under adminPrefix, to requests
// that carry "Authorization: Bearer token", and every other path with h.
// The token is the endpoint's only key: an API key (sent as Basic
// authentication) opens none of it, and the token opens nothing of the API.
func withAdmin(h *ordermsgtest.Handler, token string) http.Handler {
	admin := http.NewServeMux()
	for _, r := range adminResources {
		base := adminPrefix + "websites/{website}/" + r.name
		admin.HandleFunc("POST "+base, r.serveAdd(h))
		admin.HandleFunc("PATCH "+base+"/{id}", r.serveChange(h))
		admin.HandleFunc("DELETE "+base+"/{id}", r.serveDelete(h))
		admin.HandleFunc(base, methodNotAllowed("POST"))
		admin.HandleFunc(base+"/{id}", methodNotAllowed("PATCH, DELETE"))
	}
	admin.HandleFunc(adminPrefix, func(w http.ResponseWriter, r *http.Request) {
		adminReply(w, http.StatusNotFound, adminError{"no such admin endpoint: " + r.Method + " " + r.URL.Path})
	})
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, adminPrefix) {
			h.ServeHTTP(w, r)
			return
		}
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ordermsg serve admin"`)
			adminReply(w, http.StatusUnauthorized, adminError{"the admin endpoint wants the header Authorization: Bearer TOKEN, with the token serve printed"})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, adminBodyLimit)
		admin.ServeHTTP(w, r)
	})
}

// adminResource is what the admin endpoint does to one resource's records.
type adminResource struct {
	name string // "orders" or "messages"
	// field is the member a request may set: "status" or "message_type".
	field string
	// late reports whether an added record may be given its date_created
	// (a record shown late: created before the newest).
	late bool
	// add adds a record to the website, created now or at created (not
	// zero only when late), and returns its id; 0 when there is no such
	// website. set sets field of a record; del deletes one; each reports
	// whether the record was there.
	add func(h *ordermsgtest.Handler, site int64, created time.Time) int64
	set func(h *ordermsgtest.Handler, site, id int64, value string) bool
	del func(h *ordermsgtest.Handler, site, id int64) bool
}

var adminResources = []adminResource{
	{
		name: "orders", field: "status", late: true,
		add: func(h *ordermsgtest.Handler, site int64, created time.Time) int64 {
			var added []*ordermsg.Order
			if created.IsZero() {
				added = h.AddOrders(site, 1)
			} else {
				added = h.AddLateOrders(site, created, 1)
			}
			if len(added) == 0 {
				return 0
			}
			return added[0].ID
		},
		set: func(h *ordermsgtest.Handler, site, id int64, v string) bool {
			return h.SetOrderStatus(site, id, ordermsg.OrderStatus(v))
		},
		del: (*ordermsgtest.Handler).DeleteOrder,
	},
	{
		name: "messages", field: "message_type",
		add: func(h *ordermsgtest.Handler, site int64, _ time.Time) int64 {
			if added := h.AddMessages(site, 1); len(added) > 0 {
				return added[0].ID
			}
			return 0
		},
		set: func(h *ordermsgtest.Handler, site, id int64, v string) bool {
			return h.SetMessageType(site, id, ordermsg.MessageType(v))
		},
		del: (*ordermsgtest.Handler).DeleteMessage,
	},
}

// methodNotAllowed answers a request by a method that its path does not
// take; allowed are the methods it takes.
func methodNotAllowed(allowed string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allowed)
		adminReply(w, http.StatusMethodNotAllowed, adminError{fmt.Sprintf("%s takes %s, not %s", r.URL.Path, allowed, r.Method)})
	}
}

// adminRecord is the answer to an add or a change: the record's place.
type adminRecord struct {
	WebsiteID int64  `json:"website_id"`
	Resource  string `json:"resource"`
	ID        int64  `json:"id"`
}

// adminError is the answer to a request the endpoint refuses.
type adminError struct {
	Error string `json:"error"`
}

// adminReply writes v as JSON with status.
func adminReply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// fields reads the body of r: a JSON object of strings, whose members are
// among allowed; an empty body is an empty object.
func (res adminResource) fields(r *http.Request, allowed ...string) (map[string]string, error) {
	var out map[string]string
	dec := json.NewDecoder(r.Body)
	switch err := dec.Decode(&out); {
	case errors.Is(err, io.EOF):
		return map[string]string{}, nil
	case err != nil:
		return nil, fmt.Errorf("the body is not a JSON object of strings: %v", err)
	case dec.More():
		return nil, fmt.Errorf("the body holds more than one JSON value")
	}
	for name := range out {
		if !slices.Contains(allowed, name) {
			return nil, fmt.Errorf("%s cannot be given %q: only %s", res.name, name, strings.Join(allowed, " and "))
		}
	}
	return out, nil
}

// ids reads the website's id from r's path, and the record's when withID.
func ids(r *http.Request, withID bool) (site, id int64, err error) {
	site, err = strconv.ParseInt(r.PathValue("website"), 10, 64)
	if err == nil && withID {
		id, err = strconv.ParseInt(r.PathValue("id"), 10, 64)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("%s: the website's and the record's ids are integers", r.URL.Path)
	}
	return site, id, nil
}

// serveAdd adds a record: POST, with an optional body that sets field and,
// for orders, date_created (RFC 3339, not after now: a record shown late).
func (res adminResource) serveAdd(h *ordermsgtest.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		site, _, err := ids(r, false)
		allowed := []string{res.field}
		if res.late {
			allowed = append(allowed, "date_created")
		}
		var given map[string]string
		if err == nil {
			given, err = res.fields(r, allowed...)
		}
		var created time.Time
		if s, ok := given["date_created"]; ok && err == nil {
			created, err = time.Parse(time.RFC3339, s)
			if err == nil && created.After(time.Now()) {
				err = fmt.Errorf("date_created %s is in the future", s)
			}
		}
		if err != nil {
			adminReply(w, http.StatusBadRequest, adminError{err.Error()})
			return
		}
		id := res.add(h, site, created)
		if id == 0 {
			adminReply(w, http.StatusNotFound, adminError{fmt.Sprintf("website %d not found", site)})
			return
		}
		if v, ok := given[res.field]; ok {
			res.set(h, site, id, v)
		}
		adminReply(w, http.StatusCreated, adminRecord{site, res.name, id})
	}
}

// serveChange sets field of a record: PATCH, with a body that gives it.
func (res adminResource) serveChange(h *ordermsgtest.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		site, id, err := ids(r, true)
		var given map[string]string
		if err == nil {
			given, err = res.fields(r, res.field)
		}
		v, ok := given[res.field]
		if err == nil && (!ok || v == "") {
			err = fmt.Errorf("the body gives no %s: want {%q: \"…\"}", res.field, res.field)
		}
		switch {
		case err != nil:
			adminReply(w, http.StatusBadRequest, adminError{err.Error()})
		case !res.set(h, site, id, v):
			adminReply(w, http.StatusNotFound, adminError{fmt.Sprintf("website %d has no %s %d", site, res.name, id)})
		default:
			adminReply(w, http.StatusOK, adminRecord{site, res.name, id})
		}
	}
}

// serveDelete deletes a record: DELETE; it is listed and retrieved no more.
func (res adminResource) serveDelete(h *ordermsgtest.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		site, id, err := ids(r, true)
		switch {
		case err != nil:
			adminReply(w, http.StatusBadRequest, adminError{err.Error()})
		case !res.del(h, site, id):
			adminReply(w, http.StatusNotFound, adminError{fmt.Sprintf("website %d has no %s %d", site, res.name, id)})
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	}
}
