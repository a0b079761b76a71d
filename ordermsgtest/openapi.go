package ordermsgtest

import (
	"bytes"
	_ "embed"
	"net/http"
)

// OpenAPIPath is where the fake serves openapi.yaml, the OpenAPI 3.1
// description of the API, for code generators and mock tools. It is served
// to GET and HEAD without credentials, faults or latency.
const OpenAPIPath = "/openapi.yaml"

// openAPIDocument is openapi.yaml, the repository's one copy of the API's
// description. It lives here, not at the repository's root: an embed
// directive cannot reach a parent directory, and embedding the document in
// the SDK's root package would put it in every program that uses the SDK.
//
//go:embed openapi.yaml
var openAPIDocument []byte

// OpenAPIDocument returns the OpenAPI 3.1 description of the API that the
// fake serves at OpenAPIPath.
func OpenAPIDocument() []byte { return bytes.Clone(openAPIDocument) }

// OpenAPIURL returns the address of the OpenAPI document the server serves.
func (s *Server) OpenAPIURL() string { return s.URL + OpenAPIPath }

func documentReply() reply {
	return reply{
		status: http.StatusOK,
		header: http.Header{"Content-Type": {"application/yaml"}},
		body:   openAPIDocument,
	}
}
