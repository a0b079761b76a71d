package ordermsgtest_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// messageFile starts srv's client and reads the first message with a file.
func messageFile(t *testing.T, srv *ordermsgtest.Server) *ordermsg.File {
	t.Helper()
	c, err := srv.Client()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range srv.Handler.Dataset().Websites[0].Messages {
		if m.File.IsExpanded() {
			got, err := c.Messages.Get(context.Background(), srv.WebsiteID, m.ID,
				&ordermsg.GetMessageOptions{Includes: []ordermsg.MessageInclude{ordermsg.MessageIncludeFile}})
			if err != nil {
				t.Fatal(err)
			}
			return got.File.Expanded
		}
	}
	t.Fatal("no message with a file")
	return nil
}

func fetch(t *testing.T, url string, header http.Header) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, body
}

func TestFileLinksServeDeterministicContentWithRange(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(small), ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{Size: 10_000}))
	defer srv.Close()
	f := messageFile(t, srv)
	if !strings.HasPrefix(f.URL, srv.URL+"/files/") {
		t.Fatalf("link %s is not on the fake's origin", f.URL)
	}
	if canonical := srv.Handler.Dataset().Websites[0]; strings.Contains(fmt.Sprint(canonical.Messages[0].File.Expanded), srv.URL) {
		t.Fatal("minting a link changed the dataset")
	}
	status, _, whole := fetch(t, f.URL, nil)
	if status != http.StatusOK || len(whole) != 10_000 || !bytes.Equal(whole, srv.Handler.FileContent(f.ID)) {
		t.Fatalf("status %d, %d bytes", status, len(whole))
	}
	other := ordermsgtest.NewHandler(ordermsgtest.Generate(small), ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{Size: 10_000}))
	if !bytes.Equal(whole, other.FileContent(f.ID)) || bytes.Equal(whole, other.FileContent(f.ID+1)) {
		t.Fatal("content is not a function of the file id")
	}
	status, h, part := fetch(t, f.URL, http.Header{"Range": {"bytes=4000-"}})
	if status != http.StatusPartialContent || h.Get("Content-Range") != "bytes 4000-9999/10000" || !bytes.Equal(part, whole[4000:]) {
		t.Fatalf("Range: status %d, Content-Range %q", status, h.Get("Content-Range"))
	}
}

func TestFileLinksRangeCanBeSwitchedOff(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(small), ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{Size: 10_000, NoRange: true}))
	defer srv.Close()
	status, _, body := fetch(t, messageFile(t, srv).URL, http.Header{"Range": {"bytes=4000-"}})
	if status != http.StatusOK || len(body) != 10_000 {
		t.Fatalf("status %d, %d bytes: want the whole file", status, len(body))
	}
}

func TestFileLinksExpireAndCannotBeForged(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(small), ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{
		TTL: time.Minute, Now: func() time.Time { return now },
	}))
	defer srv.Close()
	f := messageFile(t, srv)
	if !f.Expires.Equal(now.Add(time.Minute)) {
		t.Fatalf("expires %v, want now + TTL", f.Expires)
	}
	forged := strings.Replace(f.URL, fmt.Sprint(f.Expires.Unix()), fmt.Sprint(f.Expires.Unix()+3600), 1)
	if status, _, _ := fetch(t, forged, nil); status != http.StatusForbidden {
		t.Fatalf("a forged expiry got %d", status)
	}
	now = now.Add(time.Minute)
	if status, _, _ := fetch(t, f.URL, nil); status != http.StatusForbidden {
		t.Fatalf("an expired link got %d", status)
	}
	if st := srv.Handler.FileStats(); st.Expired != 1 || st.Requests != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestFileLinksOnASecondOriginTakeFaults(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(small),
		ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{SeparateOrigin: true}),
		ordermsgtest.WithFaults(ordermsgtest.Faults{Seed: 1, Rate: 1, Kinds: []ordermsgtest.Fault{ordermsgtest.FaultServerError}}))
	defer srv.Close()
	// Every request fails, the API's too: read the link through a server
	// without faults, then ask the faulty file host for it (faults are
	// drawn before the link is checked).
	clean := ordermsgtest.NewServer(srv.Handler.Dataset(), ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{SeparateOrigin: true}))
	defer clean.Close()
	f := messageFile(t, clean)
	if clean.FilesURL == clean.URL || !strings.HasPrefix(f.URL, clean.FilesURL) {
		t.Fatalf("link %s is not on the second origin %s", f.URL, clean.FilesURL)
	}
	faulty := strings.Replace(f.URL, clean.FilesURL, srv.FilesURL, 1)
	if status, _, _ := fetch(t, faulty, nil); status != http.StatusInternalServerError {
		t.Fatalf("status %d, want the injected 500", status)
	}
}
