//go:build linux

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// BenchmarkWorkerPeriodCPU compares the two ways to run a fleet of 200
// websites with nothing new, each as its own process of the built
// command: the CPU of a one-shot `sync --websites` (start-up, schema
// check, FILE and every website), the mean of four, against that of a
// `sync --every 8s` worker over one period, the mean of its third to
// sixth (from the end of the second to the end of the sixth), its idle
// time included (goal ≤ 1.2). The means smooth out the noise of a
// machine that does other work meanwhile.
func BenchmarkWorkerPeriodCPU(b *testing.B) {
	binary(b) // built before the fake starts
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 41, Websites: 200, OrdersPerWebsite: 3, MessagesPerWebsite: 3}))
	b.Cleanup(srv.Close)
	file := websitesFile(b, fileOf(srv.Handler.Dataset().Websites))
	env := map[string]string{envBaseURL: srv.URL}
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			for range b.N {
				target := be.New(b)
				oneShot := func() time.Duration {
					cmd := command(b, "", env, "sync", "--db", target, "--websites", file)
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("sync --websites: %v\n%s", err, out)
					}
					return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				}
				oneShot() // the first copy
				shot := (oneShot() + oneShot() + oneShot() + oneShot()) / 4
				db := be.Open(b, target)
				runs := func() int {
					var n int
					if err := db.QueryRow("SELECT count(*) FROM mirror_runs").Scan(&n); err != nil {
						b.Fatal(err)
					}
					return n
				}
				before := runs()
				worker := command(b, "", env, "sync", "--db", target, "--websites", file, "--every", "8s")
				if err := worker.Start(); err != nil {
					b.Fatal(err)
				}
				waitRuns := func(n int) {
					deadline := time.Now().Add(5 * time.Minute)
					for runs() < before+n {
						if time.Now().After(deadline) {
							b.Fatalf("fewer than %d runs in 5 minutes", n)
						}
						time.Sleep(20 * time.Millisecond)
					}
				}
				waitRuns(400)
				from := processCPU(b, worker.Process.Pid)
				waitRuns(1200)
				period := (processCPU(b, worker.Process.Pid) - from) / 4
				worker.Process.Signal(syscall.SIGTERM)
				if err := worker.Wait(); err != nil {
					b.Fatalf("worker: %v", err)
				}
				b.ReportMetric(float64(period)/float64(shot), "period/oneshot-cpu")
				b.ReportMetric(shot.Seconds(), "oneshot-cpu-s")
				b.ReportMetric(period.Seconds(), "period-cpu-s")
			}
		})
	}
}

// processCPU is the CPU time, user and system, that process pid has used,
// from /proc/PID/stat (in ticks of 10 ms, Linux's USER_HZ).
func processCPU(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		b.Fatal(err)
	}
	// The fields after the command's name, which ends with ')': utime and
	// stime are the 12th and 13th of them.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}
