package ordermsg_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestObserverAttemptOfARetriedRedirectRefusal: a caller's http.Client
// whose CheckRedirect refuses a redirect makes net/http return the 3xx
// answer with the error; that attempt failed, so its end must carry the
// error (and it must end before the retry that follows it), not be closed
// as a success by the next attempt's start.
func TestObserverAttemptOfARetriedRedirectRefusal(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	}))
	defer srv.Close()
	o := &observed{t: t}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return errors.New("no redirects here") }}
	c, err := ordermsg.NewClient(srv.URL, "key", ordermsg.WithHTTPClient(hc), ordermsg.WithObserver(o.observer()),
		ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Orders.Get(context.Background(), 1, 2, nil); err == nil {
		t.Fatal("no error")
	}
	for i, line := range o.lines {
		if strings.HasPrefix(line, "attempt end") && strings.HasSuffix(line, "err=nil") {
			t.Errorf("line %d: a refused redirect's attempt ended as a success", i)
		}
	}
	if i := slices.IndexFunc(o.lines, func(l string) bool { return strings.HasPrefix(l, "retry") }); i > 0 && !strings.HasPrefix(o.lines[i-1], "attempt end") {
		t.Errorf("the retry is told before its attempt ended")
	}
	if t.Failed() {
		t.Logf("observed:\n%s", strings.Join(o.lines, "\n"))
	}
}

// TestObserverSeesADownloadResume: a download cut after it wrote bytes is
// resumed by another attempt (its resend count says so); the observer is
// told of it as of any other retry, so that the retries metric and the
// call's events count it.
func TestObserverSeesADownloadResume(t *testing.T) {
	o := &observed{t: t}
	srv, c := fileServer(t, ordermsgtest.FileLinks{Size: 10_000, CutAfter: []int64{4096}}, ordermsg.WithObserver(o.observer()))
	f := firstFile(t, srv, c)
	o.lines = nil // the record's read
	if _, err := c.Download(context.Background(), f, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	resent := slices.ContainsFunc(o.lines, func(l string) bool { return strings.Contains(l, "resend=1") && strings.HasPrefix(l, "attempt") })
	retried := slices.ContainsFunc(o.lines, func(l string) bool { return strings.HasPrefix(l, "retry") })
	if resent && !retried {
		t.Errorf("an attempt resent after a cut, with no retry told:\n%s", strings.Join(o.lines, "\n"))
	}
}

// TestObserverConcurrentWalk: a walk of several pages at once, some pages
// retried, tells each page's call its own attempts and retries (run with
// -race: no state is shared between the pages' calls).
func TestObserverConcurrentWalk(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 5, Websites: 1, OrdersPerWebsite: 300, MessagesPerWebsite: 1}),
		ordermsgtest.WithFaults(ordermsgtest.Faults{Rate: 0.3, Seed: 9}))
	defer srv.Close()
	o := &observed{t: t}
	c, err := srv.Client(ordermsg.WithObserver(o.observer()),
		ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 8, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range c.Orders.All(context.Background(), srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 10}, ordermsg.WithConcurrency(8)) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	calls, ends, attempts, attemptEnds := 0, 0, 0, 0
	for _, l := range o.lines {
		switch {
		case strings.HasPrefix(l, "call "):
			calls++
		case strings.HasPrefix(l, "end "):
			ends++
		case strings.HasPrefix(l, "attempt end"):
			attemptEnds++
		case strings.HasPrefix(l, "attempt "):
			attempts++
		}
	}
	if n != 300 || calls != ends || attempts != attemptEnds || calls < 30 {
		t.Fatalf("%d records; %d calls, %d ends; %d attempts, %d ends", n, calls, ends, attempts, attemptEnds)
	}
}
