package contract

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/ordermsg/ordermsg-go/internal/exchangelog"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// suiteLogEnv names the directory of the exchange logs that the other test
// suites wrote with exchangelog.Env set (see .ci/run): those whose TestMain
// calls exchangelog.Main. It is another variable than exchangelog.Env, so
// that it never names where a fake writes.
const suiteLogEnv = "ORDERMSG_CHECK_EXCHANGE_LOG"

// Every exchange the fake served in the suites agrees with openapi.yaml:
// every response to a request of one of the document's operations, and
// every request the SDK sent, except those the fake refused with 400: they
// are the suites' deliberate mistakes (another version header), whose
// responses are checked, not the requests. Requests made without the SDK
// (raw HTTP in the fake's own tests) are not the SDK's: only their
// responses are checked. What the fake serves with success at a path the
// document does not describe is not the API's, and is left alone.
// An exchange logged again byte for byte (the suites ask the same seeded
// fakes the same things) has the same verdict: it is checked once.
func TestRecordedSuiteExchanges(t *testing.T) {
	dir := os.Getenv(suiteLogEnv)
	if dir == "" {
		t.Skipf("%s is not set: run the suites with %s=DIR first, then this test with %s=DIR (see .ci/run)", suiteLogEnv, exchangelog.Env, suiteLogEnv)
	}
	files, err := filepath.Glob(filepath.Join(dir, exchangelog.FilePattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no exchange logs in %s (%v)", dir, err)
	}
	const base = "http://ordermsgtest.invalid"
	checker, err := Load(context.Background(), ordermsgtest.OpenAPIDocument(), base)
	if err != nil {
		t.Fatal(err)
	}
	var logged, repeated, violations int
	seen := map[[sha256.Size]byte]bool{}
	checked := map[string]int{} // "request"/"response" of each operation
	var mu sync.Mutex           // checked and violations
	// The checks run on every core: each line is checked on its own.
	lines := make(chan []byte)
	var workers sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		workers.Go(func() {
			for line := range lines {
				ops, err := checkLogged(checker, base, line)
				mu.Lock()
				for _, op := range ops {
					checked[op]++
				}
				if err != nil {
					if violations++; violations <= 10 {
						t.Error(err)
					}
				}
				mu.Unlock()
			}
		})
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		scan := bufio.NewScanner(f)
		scan.Buffer(nil, 64<<20)
		for scan.Scan() {
			logged++
			sum := sha256.Sum256(scan.Bytes())
			if seen[sum] {
				repeated++
				continue
			}
			seen[sum] = true
			lines <- bytes.Clone(scan.Bytes())
		}
		f.Close()
		if err := scan.Err(); err != nil {
			close(lines)
			workers.Wait()
			t.Fatalf("%s: %v", name, err)
		}
	}
	close(lines)
	workers.Wait()
	if violations > 10 {
		t.Errorf("... %d violations in all", violations)
	}
	for _, op := range []string{"retrieveOrder", "listOrders", "retrieveMessage", "listMessages"} {
		if checked["request "+op] == 0 || checked["response "+op] == 0 {
			t.Errorf("the logs hold no SDK request and response of %s; checked: %v", op, checked)
		}
	}
	t.Logf("%d exchanges logged, %d of them repeated; checked: %v", logged, repeated, checked)
}

// checkLogged checks one logged exchange, line, as TestRecordedSuiteExchanges
// says, and returns what it checked ("request OPERATION", "response
// OPERATION") and the violations.
func checkLogged(checker *Checker, base string, line []byte) ([]string, error) {
	var ex exchangelog.Exchange
	if err := json.Unmarshal(line, &ex); err != nil {
		return nil, err
	}
	r, err := http.NewRequest(ex.Method, base+ex.Target, nil)
	if err != nil {
		return nil, err
	}
	r.Header = ex.Header
	// The SDK's User-Agent always ends in ordermsg-go/<version>.
	fromSDK := strings.Contains(r.Header.Get("User-Agent"), "ordermsg-go/") && ex.Status != http.StatusBadRequest
	in, reqErr := checker.CheckRequest(context.Background(), r)
	if in == nil || in.Route == nil {
		if ex.Status >= 200 && ex.Status < 300 {
			// The fake served something the API does not describe
			// (files, say): not an exchange of the API.
			return nil, nil
		}
		if fromSDK && reqErr != nil {
			return nil, fmt.Errorf("%s %s: %w", ex.Method, ex.Target, reqErr)
		}
		return nil, nil
	}
	var ops []string
	var errs []error
	if fromSDK {
		errs = append(errs, reqErr)
		ops = append(ops, "request "+in.Route.Operation.OperationID)
	}
	if ex.Status != 0 {
		errs = append(errs, checker.CheckResponse(context.Background(), in, ex.Status, ex.ResponseHeader, ex.Body))
		ops = append(ops, "response "+in.Route.Operation.OperationID)
	}
	if err := errors.Join(errs...); err != nil {
		return ops, fmt.Errorf("%s %s: %w", ex.Method, ex.Target, err)
	}
	return ops, nil
}
