//go:build unix

package main

import (
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// freeAddr is a loopback address that no one listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// scrapeURL reads url in the text format and parses it; nil when it does
// not answer 200 yet.
func scrapeURL(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("GET /metrics does not parse: %v\n%s", err, body)
	}
	return families
}

// TestWorkerServesMetrics runs a worker process with --metrics: /metrics,
// parsed with the Prometheus parser, has both fixed gauges for every
// website of FILE, its last success set once it synced, ok runs counted
// by the worker's Events, and API requests counted by each client's
// observer; /healthz answers beside it.
func TestWorkerServesMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	srv, sites := fakeFleet(t, ordermsgtest.Config{Seed: 40, Websites: 3, OrdersPerWebsite: 5, MessagesPerWebsite: 5})
	file := websitesFile(t, fileOf(sites))
	addr := freeAddr(t)
	db := filepath.Join(t.TempDir(), "m.db")
	cmd := command(t, "", map[string]string{envBaseURL: srv.URL}, "sync", "--db", db, "--websites", file, "--every", "1s", "--metrics", addr)
	stderr := &lockedBuilder{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var families map[string]*dto.MetricFamily
	waitUntil(t, time.Minute, "a last success for every website on /metrics", func() bool {
		families = scrapeURL(t, "http://"+addr+"/metrics")
		success := byLabel(families, "ordermsg_website_last_success_timestamp_seconds", "website_id")
		for _, w := range sites {
			if success[strconv.FormatInt(w.ID, 10)] == 0 {
				return false
			}
		}
		return true
	})
	failures := byLabel(families, "ordermsg_website_consecutive_failures", "website_id")
	for _, w := range sites {
		if v, ok := failures[strconv.FormatInt(w.ID, 10)]; !ok || v != 0 {
			t.Errorf("website %d: ordermsg_website_consecutive_failures %v (present %v), want 0", w.ID, v, ok)
		}
	}
	if ok := value(t, families, "ordermsg_runs_total", "status", "ok"); ok < float64(len(sites)) {
		t.Errorf("ordermsg_runs_total{status=\"ok\"} %v, want at least %d", ok, len(sites))
	}
	if n := value(t, families, "ordermsg_api_requests_total", "code", "200"); n == 0 {
		t.Error("ordermsg_api_requests_total{code=\"200\"} 0: the clients' observer counts nothing")
	}
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("/healthz beside /metrics: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCodeOf(t, cmd.Wait()); code != exitOK {
		t.Errorf("after SIGTERM: exit %d\n%s", code, stderr)
	}
}
