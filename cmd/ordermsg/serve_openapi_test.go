package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// serve prints where the OpenAPI document is, and it is there.
func TestServePrintsTheOpenAPIAddress(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	a := &app{stdout: w, stderr: io.Discard, getenv: func(string) string { return "" }, isTerminal: func(any) bool { return false }}
	done := make(chan int, 1)
	go func() {
		done <- a.run(ctx, []string{"serve", "--websites", "1", "--orders", "1", "--messages", "1"})
		w.Close()
	}()
	var docURL string
	for lines := bufio.NewScanner(r); docURL == "" && lines.Scan(); {
		fmt.Sscanf(lines.Text(), "OpenAPI document at %s", &docURL)
	}
	go io.Copy(io.Discard, r)
	defer func() {
		cancel()
		<-done
	}()
	if docURL == "" {
		t.Fatal("serve printed no OpenAPI document address")
	}
	resp, err := http.Get(docURL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Equal(body, ordermsgtest.OpenAPIDocument()) {
		t.Fatalf("GET %s: %d, %d bytes, want the document", docURL, resp.StatusCode, len(body))
	}
}
