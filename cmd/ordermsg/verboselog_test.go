package main

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
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
