package exchangelog

import (
	"bufio"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// run is a *testing.M for Main: Run calls its func.
type run func() int

func (r run) Run() int { return r() }

// read returns the exchanges of the log files in dir, failing unless
// there is exactly one file.
func read(t *testing.T, dir string) []Exchange {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, FilePattern))
	if err != nil || len(files) != 1 {
		t.Fatalf("log files in %s: %v, %v; want one", dir, files, err)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []Exchange
	for lines := bufio.NewScanner(f); lines.Scan(); {
		var ex Exchange
		if err := json.Unmarshal(lines.Bytes(), &ex); err != nil {
			t.Fatalf("line %q: %v", lines.Text(), err)
		}
		got = append(got, ex)
	}
	return got
}

func exchange(target string) Exchange {
	return Exchange{Method: http.MethodGet, Target: target, Header: http.Header{"Service-Api-Version": {"1"}},
		Status: http.StatusOK, ResponseHeader: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"id":1}`)}
}

// Concurrent records each make one whole line of the file.
func TestRecordWritesOneLinePerExchange(t *testing.T) {
	dir := t.TempDir()
	l, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	const n = 50
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { l.Record(exchange("/websites/1/orders/7")) })
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got := read(t, dir)
	if len(got) != n {
		t.Fatalf("%d exchanges logged; want %d", len(got), n)
	}
	for _, ex := range got {
		if !reflect.DeepEqual(ex, exchange("/websites/1/orders/7")) {
			t.Fatalf("logged %+v; want %+v", ex, exchange("/websites/1/orders/7"))
		}
	}
}

// A nil Log is logging off: Record does nothing and does not panic.
func TestNilLogRecordsNothing(t *testing.T) {
	var l *Log
	l.Record(exchange("/"))
}

// A write that fails does not panic the fake's request: the first error
// is kept, and Close returns it.
func TestRecordKeepsTheWriteErrorForClose(t *testing.T) {
	l, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l.file.Close() // every write fails from now on
	l.Record(exchange("/first"))
	l.Record(exchange("/second"))
	err = l.Close()
	if !errors.Is(err, os.ErrClosed) || !strings.Contains(err.Error(), "exchange log "+l.file.Name()) {
		t.Fatalf("Close: %v; want the write's error, naming the file", err)
	}
}

// Without Env, Main runs the tests with logging off and returns their code.
func TestMainWithoutEnvLogsNothing(t *testing.T) {
	t.Setenv(Env, "")
	var during *Log
	code := Main(run(func() int { during = Current(); return 3 }))
	if code != 3 || during != nil {
		t.Fatalf("Main: code %d, log during the tests %v; want 3 and no log", code, during)
	}
}

// With Env, the fakes log into a new file of its directory while the tests
// run, and only then.
func TestMainLogsWhileTheTestsRun(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(Env, dir)
	code := Main(run(func() int {
		Current().Record(exchange("/websites/1/messages"))
		return 0
	}))
	if code != 0 {
		t.Fatalf("Main: code %d; want 0", code)
	}
	if l := Current(); l != nil {
		t.Fatal("logging still on after Main returned")
	}
	if got := read(t, dir); !reflect.DeepEqual(got, []Exchange{exchange("/websites/1/messages")}) {
		t.Fatalf("logged %+v", got)
	}
	if code := Main(run(func() int { return 2 })); code != 2 {
		t.Fatalf("Main: code %d; want the tests' 2", code)
	}
}

// A log that cannot be created fails the test binary before any test runs,
// and one that cannot be written fails it after the tests, whose code was 0.
func TestMainFailsWhenTheLogFails(t *testing.T) {
	t.Setenv(Env, filepath.Join(t.TempDir(), "missing"))
	ran := false
	if code := Main(run(func() int { ran = true; return 0 })); code != 1 || ran {
		t.Fatalf("Main with no such directory: code %d, tests ran %v; want 1 and no run", code, ran)
	}

	t.Setenv(Env, t.TempDir())
	code := Main(run(func() int {
		Current().file.Close()
		Current().Record(exchange("/"))
		return 0
	}))
	if code != 1 {
		t.Fatalf("Main with a failed write: code %d; want 1", code)
	}
}
