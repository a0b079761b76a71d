// Package exchangelog is the log of the exchanges the fake (package
// ordermsgtest) serves. CI sets Env while the test suites run, and the
// contract module then checks every logged exchange against openapi.yaml
// (see .ci/run).
//
// Logging is off in every process until Main starts it, and only the
// repository's own tests call Main (from their TestMain): the package is
// internal, so no other module can. A program or a test suite of a user
// that imports ordermsgtest never writes a log, whatever its environment.
package exchangelog

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
)

// Env names an environment variable that Main reads: when it holds a
// directory, every fake of the test process appends the exchanges it
// serves to a file there (its name matches FilePattern), one Exchange per
// line.
const Env = "ORDERMSG_EXCHANGE_LOG"

// FilePattern is the pattern, for filepath.Glob, of the names of the log
// files in Env's directory.
const FilePattern = "exchanges-*.jsonl"

// Exchange is one request the fake served and its answer.
type Exchange struct {
	Method string `json:"method"`
	// Target is the path and query the handler answered (without the path
	// of Register's base URL).
	Target string      `json:"target"`
	Header http.Header `json:"header"`
	// Status is 0 when the answer was an injected dropped connection or
	// cut body.
	Status         int         `json:"status"`
	ResponseHeader http.Header `json:"response_header,omitempty"`
	Body           []byte      `json:"body,omitempty"`
}

// Log appends exchanges to its file. It is safe for concurrent use; a nil
// Log logs nothing.
type Log struct {
	mu   sync.Mutex
	file *os.File
	enc  *json.Encoder
	err  error // the first error of a write
}

// Create starts a new log file in dir.
func Create(dir string) (*Log, error) {
	f, err := os.CreateTemp(dir, FilePattern)
	if err != nil {
		return nil, err
	}
	return &Log{file: f, enc: json.NewEncoder(f)}, nil
}

// Record appends ex to the log; on a nil Log it does nothing. An error of
// the write is kept, and Close returns it: a fake does not fail a request
// because its log could not be written.
func (l *Log) Record(ex Exchange) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	if err := l.enc.Encode(ex); err != nil {
		l.err = fmt.Errorf("exchange log %s: %w", l.file.Name(), err)
	}
}

// Close closes the log's file and returns the first error of a write or
// of the close.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return errors.Join(l.err, l.file.Close())
}

// current is the log Main started, or nil.
var current atomic.Pointer[Log]

// Current returns the log Main started, or nil when logging is off.
func Current() *Log { return current.Load() }

// Main runs m's tests (m is a *testing.M) and returns the code to exit
// with. When Env names a directory, the fakes of the process log into a new
// file there while the tests run; the code is then 1, and the reason is
// written to stderr, when the file could not be created or written.
func Main(m interface{ Run() int }) int {
	dir := os.Getenv(Env)
	if dir == "" {
		return m.Run()
	}
	l, err := Create(dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", Env, err)
		return 1
	}
	current.Store(l)
	code := m.Run()
	current.Store(nil)
	if err := l.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", Env, err)
		return 1
	}
	return code
}
