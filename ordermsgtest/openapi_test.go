package ordermsgtest_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

func TestOpenAPIDocumentIsServedWithoutCredentialsOrFaults(t *testing.T) {
	// Every API request would fail; the document must not.
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(small), ordermsgtest.WithFaults(ordermsgtest.Faults{Rate: 1, Kinds: []ordermsgtest.Fault{ordermsgtest.FaultServerError}}))
	defer srv.Close()
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		req, _ := http.NewRequest(method, srv.OpenAPIURL(), nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/yaml" {
			t.Fatalf("%s: %d %q", method, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if method == http.MethodGet && !bytes.Equal(body, ordermsgtest.OpenAPIDocument()) {
			t.Fatalf("GET served %d bytes, not the document", len(body))
		}
	}
	if srv.Handler.Stats().Requests != 0 {
		t.Fatalf("document requests went through the fault injector: %+v", srv.Handler.Stats())
	}
	resp, err := http.Post(fake(t).OpenAPIURL(), "application/yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %d, want 405", resp.StatusCode)
	}
}

func TestOpenAPIDocumentThroughHTTPMock(t *testing.T) {
	mt := httpmock.NewMockTransport()
	ordermsgtest.NewHandler(ordermsgtest.Generate(small)).Register(mt, "https://fake.example/api")
	resp, err := (&http.Client{Transport: mt}).Get("https://fake.example/api" + ordermsgtest.OpenAPIPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Equal(body, ordermsgtest.OpenAPIDocument()) {
		t.Fatalf("%d, %d bytes", resp.StatusCode, len(body))
	}
}
