//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// BenchmarkFleetPeakMemory runs one worker, `sync --websites` (the built
// command, its default --parallel 4), over fleets of different sizes, each
// into a new database, and reports the worker's peak resident memory (the
// process's VmHWM, which Linux keeps): 4 websites of 300 orders and 300 messages, 16 such
// websites, and 4 websites of 1,200 and 1,200. The worker holds at most
// --parallel websites at a time, so its peak stays flat in the number of
// websites: the ratio of 16 websites to 4 is the goal (about 1); that of
// 1,200 records to 300 is the writer's, which holds at most two batches.
func BenchmarkFleetPeakMemory(b *testing.B) {
	binary(b) // built before the fakes start
	type fleet struct {
		name              string
		websites, records int
	}
	fleets := []fleet{{"4-websites", 4, 300}, {"16-websites", 16, 300}, {"4-websites-of-1200", 4, 1200}}
	servers := map[string]*ordermsgtest.Server{}
	files := map[string]string{}
	for _, f := range fleets {
		srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 31, Websites: f.websites, OrdersPerWebsite: f.records, MessagesPerWebsite: f.records}))
		b.Cleanup(srv.Close)
		servers[f.name] = srv
		files[f.name] = websitesFile(b, fileOf(srv.Handler.Dataset().Websites))
	}
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			peak := map[string]int64{} // the largest maxrss, in KiB
			for range b.N {
				for _, f := range fleets {
					target := be.New(b)
					cmd := command(b, "", map[string]string{envBaseURL: servers[f.name].URL}, "sync", "--db", target, "--websites", files[f.name])
					if rss := peakRSS(b, cmd); rss > peak[f.name] {
						peak[f.name] = rss
					}
				}
			}
			for _, f := range fleets {
				b.ReportMetric(float64(peak[f.name])/1024, "MiB/"+f.name)
			}
			b.ReportMetric(float64(peak["16-websites"])/float64(peak["4-websites"]), "16-websites/4-websites")
			b.ReportMetric(float64(peak["4-websites-of-1200"])/float64(peak["4-websites"]), fmt.Sprintf("%d-records/%d-records", 1200, 300))
		})
	}
}

// peakRSS runs cmd to its end and returns its peak resident memory in KiB:
// the last VmHWM of /proc/PID/status read while it ran, every millisecond.
// (The maxrss of wait4 does not tell it: Linux counts in it the memory of
// the process that started the command, this benchmark's, which holds the
// fakes.)
func peakRSS(b *testing.B, cmd *exec.Cmd) int64 {
	b.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	var peak int64
	for {
		select {
		case err := <-done:
			if err != nil {
				b.Fatalf("%v: %v\n%s", cmd.Args, err, out.String())
			}
			if peak == 0 {
				b.Fatalf("%v: no VmHWM read", cmd.Args)
			}
			return peak
		case <-time.After(time.Millisecond):
		}
		text, err := os.ReadFile(status)
		if err != nil {
			continue // it is ending
		}
		for _, line := range strings.Split(string(text), "\n") {
			var kib int64
			if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kib); err == nil {
				peak = max(peak, kib)
			}
		}
	}
}
