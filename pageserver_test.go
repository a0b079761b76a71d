package ordermsg_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/exchangelog"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// pageServerEnv, when set in the environment of this test binary, makes it a
// page server (see startPageServer) instead of running tests: its value is
// the directory of the pages, and pageLatencyEnv the latency.
const (
	pageServerEnv  = "ORDERMSG_TEST_PAGE_SERVER"
	pageLatencyEnv = "ORDERMSG_TEST_PAGE_LATENCY"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(pageServerEnv); dir != "" {
		if err := servePages(dir, os.Getenv(pageLatencyEnv)); err != nil {
			fmt.Fprintln(os.Stderr, "page server:", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(exchangelog.Main(m))
}

// startPageServer fetches pages 1..pages of the fake's orders, perPage a
// page, with includes, as the fake sends them (KeepRawJSON), and starts
// a page server in a process of its own that answers a request for page n,
// after latency, with those bytes, whatever else the request says. It
// returns the server's URL; the process ends with the benchmark.
//
// The walk benchmarks measure how a client spends the time a remote server
// takes. A server in the benchmark's own process shares its goroutine
// scheduler: on a 2-core machine, a request that has reached the socket
// waited for the client's decode of the page before to end (up to 4 ms)
// before the server's goroutine read it, which no remote server does. In a
// process of its own, the server's goroutines never wait for the client's.
// The pages are rendered before the timing, so the bound below counts round
// trips only.
func startPageServer(tb testing.TB, fake *ordermsgtest.Server, pages, perPage int, includes []ordermsg.OrderInclude, latency time.Duration) string {
	tb.Helper()
	dir := tb.TempDir()
	c, err := fake.Client()
	if err != nil {
		tb.Fatal(err)
	}
	defer c.CloseIdleConnections()
	for page := 1; page <= pages; page++ {
		p, err := c.Orders.List(context.Background(), fake.WebsiteID,
			&ordermsg.ListOrdersOptions{Page: page, Count: perPage, Includes: includes, KeepRawJSON: true})
		if err != nil {
			tb.Fatalf("page %d: %v", page, err)
		}
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(page)), p.RawJSON(), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), pageServerEnv+"="+dir, pageLatencyEnv+"="+latency.String())
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe() // the server ends when this closes
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			tb.Errorf("page server: %v", err)
		}
	})
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		tb.Fatalf("page server: %v", err)
	}
	return strings.TrimSpace(url)
}

// servePages is the page server's process: it serves the files of dir,
// named by page number, after latency, prints its URL, and stops when its
// standard input closes.
func servePages(dir, latency string) error {
	wait, err := time.ParseDuration(latency)
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	body := make([][]byte, len(entries)+1)
	for page := 1; page <= len(entries); page++ {
		if body[page], err = os.ReadFile(filepath.Join(dir, strconv.Itoa(page))); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("http://%s\n", ln.Addr())
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		ln.Close()
	}()
	err = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		time.Sleep(wait)
		if page < 1 || page >= len(body) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body[page])))
		_, _ = w.Write(body[page])
	}))
	if _, stopped := err.(*net.OpError); stopped {
		return nil
	}
	return err
}
