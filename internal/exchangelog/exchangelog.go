// Package exchangelog is the log of the exchanges the fake (package
// ordermsgtest) serves. CI sets Env while the test suites run, and the
// contract module then checks every logged exchange against openapi.yaml
// (see .ci/run). It is internal: only the repository's CI uses it.
package exchangelog

import (
	"encoding/json"
	"net/http"
	"os"
	"sync"
)

// Env names an environment variable: when it holds a directory, every
// fake of the process appends the exchanges it serves to a file there (its
// name matches FilePattern), one Exchange per line.
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
	mu  sync.Mutex
	enc *json.Encoder
}

// Create starts a new log file in dir.
func Create(dir string) (*Log, error) {
	f, err := os.CreateTemp(dir, FilePattern)
	if err != nil {
		return nil, err
	}
	return &Log{enc: json.NewEncoder(f)}, nil
}

// process is the process's log, or nil when Env is unset.
var process = sync.OnceValue(func() *Log {
	dir := os.Getenv(Env)
	if dir == "" {
		return nil
	}
	l, err := Create(dir)
	if err != nil {
		panic("ordermsgtest: " + Env + ": " + err.Error())
	}
	return l
})

// Process returns the process's log, in the directory Env names, started
// on the first call; it returns nil when Env is unset. It panics when the
// log file cannot be created.
func Process() *Log { return process() }

// Record appends ex to the log; on a nil Log it does nothing. It panics
// when the log cannot be written.
func (l *Log) Record(ex Exchange) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.enc.Encode(ex); err != nil {
		panic("ordermsgtest: " + Env + ": " + err.Error())
	}
}
