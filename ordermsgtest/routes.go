package ordermsgtest

import (
	"net/http"
	"net/url"
	"strings"
)

// The fake routes with net/http's method-and-path patterns, on three
// routers:
//
//   - files: the file links, /files/{id}/{name}, on the API's origin
//     (ServeHTTP) or a second one (FileLinks.SeparateOrigin);
//   - front: the OpenAPI document at OpenAPIPath, without faults, and any
//     other request through the fault injector to the endpoints (decide);
//   - endpoints: the API's four operations, and a 404 for any other path
//     (answer). It reads the path without the slashes at its ends, so that
//     /websites/1/orders/ lists orders as /websites/1/orders does.
//
// ServeMux's own answers never reach a client: files serves only the paths
// it has a route for (serveFileLink), front and endpoints have a route for
// every path ("/"), so that a wrong method or an unknown path gets the
// fake's 405 or 404, and no router is given a path it would redirect (see
// routable). The routes of front and endpoints leave their reply in a
// replyWriter.
func (h *Handler) newRouters() {
	h.fileRoutes = http.NewServeMux()
	h.fileRoutes.HandleFunc(filesPrefix+"{id}", h.serveFile)
	h.fileRoutes.HandleFunc(filesPrefix+"{id}/{name...}", h.serveFile)

	h.front = http.NewServeMux()
	h.front.HandleFunc("GET "+OpenAPIPath, func(w http.ResponseWriter, _ *http.Request) {
		w.(*replyWriter).reply(documentReply())
	})
	h.front.HandleFunc("/", h.answerWithFaults)

	h.endpoints = http.NewServeMux()
	h.endpoints.HandleFunc("GET /websites/{website_id}/orders", h.endpoint("orders", h.listOrders))
	h.endpoints.HandleFunc("GET /websites/{website_id}/orders/{id}", h.endpoint("", h.retrieveOrder))
	h.endpoints.HandleFunc("GET /websites/{website_id}/messages", h.endpoint("messages", h.listMessages))
	h.endpoints.HandleFunc("GET /websites/{website_id}/messages/{id}", h.endpoint("", h.retrieveMessage))
	h.endpoints.HandleFunc("/", h.unknownEndpoint)
}

// routable returns r as the fake's routers read it, with path for its path.
//
// ServeMux answers 301 to a path with an empty or a dot segment ("//",
// "/./"), routes on the escaped path, so that %2F stays inside a segment,
// and never matches an empty segment with a wildcard. The fake reads the
// decoded path, split at its slashes, as it was written: a dot is an id
// like any other, and an empty id is unknown. So the router is given each
// segment of path escaped: "." and ".." as %2E, and an empty segment as
// %2F%2F, which no segment of a path split at its slashes can be; pathValue
// reads it back as empty. (A lone %2F would not do: ServeMux reads it as
// "/", its mark of a trailing slash, which no wildcard matches.)
func routable(r *http.Request, path string) *http.Request {
	segments := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, s := range segments {
		switch s {
		case "":
			segments[i] = "%2F%2F"
		case ".", "..":
			segments[i] = strings.Repeat("%2E", len(s))
		default:
			segments[i] = url.PathEscape(s)
		}
	}
	escaped := "/" + strings.Join(segments, "/")
	decoded, _ := url.PathUnescape(escaped)
	rr := r.WithContext(r.Context()) // a shallow copy
	rr.URL = &url.URL{Path: decoded, RawPath: escaped, RawQuery: r.URL.RawQuery}
	// ServeMux answers 400 to a RequestURI of "*" (OPTIONS *, GET *, …).
	rr.RequestURI = rr.URL.RequestURI()
	return rr
}

// pathValue returns the path segment that the wildcard name of r's route
// matched, "" for an empty one (see routable).
func pathValue(r *http.Request, name string) string {
	if v := r.PathValue(name); v != "//" {
		return v
	}
	return ""
}

// replyWriter is the http.ResponseWriter that front and endpoints are
// served with: a route leaves its reply to req, the request as it came,
// there. Routes write nothing, and ServeMux writes nothing to a router
// that has a route for every path (see newRouters).
type replyWriter struct {
	http.ResponseWriter // nil
	req                 *http.Request
	rep                 reply
	// ok is false when the request's context ended before the reply.
	ok bool
}

// reply leaves rep as the reply to rw.req.
func (rw *replyWriter) reply(rep reply) { rw.rep, rw.ok = rep, true }

// serve routes r, with path for its path, through router, and returns the
// reply that the route left.
func serve(router *http.ServeMux, r *http.Request, path string) (reply, bool) {
	rw := &replyWriter{req: r}
	router.ServeHTTP(rw, routable(r, path))
	return rw.rep, rw.ok
}
