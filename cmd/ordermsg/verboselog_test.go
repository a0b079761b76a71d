package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
)

// TestVerboseRetryLogMasksKey: a hostile server that answers with a status
// line quoting the API key gets the key into net/http's error text
// ("malformed HTTP response %q"), which is retried, and -v logs each
// retry's error on stderr: the key must be masked there as in the final
// error line.
func TestVerboseRetryLogMasksKey(t *testing.T) {
	const key = "omk_review_0123456789abcdef"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				r := bufio.NewReader(conn)
				for {
					line, err := r.ReadString('\n')
					if err != nil || line == "\r\n" {
						break
					}
				}
				conn.Write([]byte(key + "\r\n\r\n"))
			}()
		}
	}()
	env := map[string]string{envBaseURL: "http://" + ln.Addr().String(), envAPIKey: key, envWebsiteID: "1"}
	_, stderr, code := cli{env: env}.run(context.Background(), "orders", "get", "1", "-v")
	if code == exitOK {
		t.Fatalf("exit 0 from a server that answers garbage")
	}
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, key) {
			t.Errorf("stderr shows the key: %s", line)
		}
	}
}

// TestVerboseFleetLogMasksKeys: in a fleet (--websites FILE) each website's
// key, which only the FILE holds, is masked in the -v log too.
func TestVerboseFleetLogMasksKeys(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetService(t, 2)
		quoting := sites[1]
		echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasPrefix(r.URL.Path, fmt.Sprintf("/websites/%d/", quoting.ID)) {
				srv.Handler.ServeHTTP(w, r)
				return
			}
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			conn.Write([]byte(quoting.APIKey + "\r\n\r\n"))
		}))
		t.Cleanup(echo.Close)
		env := map[string]string{envBaseURL: echo.URL}
		stdout, stderr, code := cli{env: env}.run(context.Background(), "sync", "--db", target, "--websites", websitesFile(t, fileOf(sites)), "-v")
		if code != exitFailure {
			t.Fatalf("exit %d, want 1:\n%s%s", code, stdout, stderr)
		}
		if !strings.Contains(stderr, "retrying request") {
			t.Fatalf("no retry logged:\n%s", stderr)
		}
		if strings.Contains(stdout+stderr, quoting.APIKey) {
			t.Errorf("the key shows:\n%s%s", stdout, stderr)
		}
	})
}
