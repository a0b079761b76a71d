package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// BenchmarkFilesDownload runs `files download --concurrency 8` on a fake
// whose 200-odd files are 1 MiB each, and in the same iteration fetches the
// same links with plain net/http and io.Copy into files, 8 at a time. It
// reports both rates and their ratio (goal: cli/plain ≥ 0.9). The CLI's time
// includes walking the API for the links; the plain side gets them free.
func BenchmarkFilesDownload(b *testing.B) {
	const size = 1 << 20
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 5, Websites: 1, OrdersPerWebsite: 280, MessagesPerWebsite: 360}),
		ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{Size: size, TTL: 24 * time.Hour}))
	defer srv.Close()
	env := map[string]string{envBaseURL: srv.URL, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID)}
	urls := servedLinks(b, env)
	plain := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	defer plain.CloseIdleConnections()
	root := b.TempDir()
	b.SetBytes(int64(size * len(urls)))
	var cliTime, plainTime time.Duration
	for i := 0; b.Loop(); i++ {
		out := filepath.Join(root, fmt.Sprint(i))
		runCLI := func() {
			start := time.Now()
			_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", filepath.Join(out, "cli"), "--concurrency", "8")
			cliTime += time.Since(start)
			if code != exitOK || !strings.Contains(stderr, fmt.Sprintf("files: %d downloaded", len(urls))) {
				b.Fatalf("exit %d: %s", code, stderr)
			}
		}
		runPlain := func() {
			start := time.Now()
			plainDownload(b, plain, urls, filepath.Join(out, "plain"), 8)
			plainTime += time.Since(start)
		}
		if i%2 == 0 {
			runPlain()
			runCLI()
		} else {
			runCLI()
			runPlain()
		}
		os.RemoveAll(out)
	}
	mb := float64(size*len(urls)) * float64(b.N) / 1e6
	b.ReportMetric(float64(len(urls)), "files")
	b.ReportMetric(mb/cliTime.Seconds(), "cli-MB/s")
	b.ReportMetric(mb/plainTime.Seconds(), "plain-MB/s")
	b.ReportMetric(plainTime.Seconds()/cliTime.Seconds(), "cli/plain")
}

// servedLinks lists the file links the fake serves, as the CLI would see
// them, by a run of the CLI's own walk.
func servedLinks(b *testing.B, env map[string]string) []string {
	b.Helper()
	var links []string
	for _, kind := range []string{"orders", "messages"} {
		include := "items.print_ready_files"
		if kind == "messages" {
			include = "file"
		}
		stdout, stderr, code := cli{env: env}.run(context.Background(), kind, "export", "--include", include)
		if code != exitOK {
			b.Fatalf("exit %d: %s", code, stderr)
		}
		for _, part := range strings.Split(stdout, `"url":"`)[1:] {
			links = append(links, strings.ReplaceAll(part[:strings.IndexByte(part, '"')], `\u0026`, "&"))
		}
	}
	return links
}

// plainDownload fetches every url into dir with workers goroutines, the way
// a hand-written program would: http.Get, os.Create, io.Copy.
func plainDownload(b *testing.B, hc *http.Client, urls []string, dir string, workers int) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		b.Fatal(err)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				resp, err := hc.Get(urls[i])
				if err != nil {
					b.Error(err)
					continue
				}
				f, err := os.Create(filepath.Join(dir, fmt.Sprint(i)))
				if err == nil {
					_, err = io.Copy(f, resp.Body)
					f.Close()
				}
				resp.Body.Close()
				if err != nil {
					b.Error(err)
				}
			}
		}()
	}
	for i := range urls {
		next <- i
	}
	close(next)
	wg.Wait()
}
