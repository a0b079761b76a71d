package ordermsgtest

import (
	"encoding/json"
	"net/http"
	"os"
	"sync"
)

// ExchangeLogEnv names an environment variable: when it holds a directory,
// every Handler of the process appends the exchanges it serves to a file
// exchanges-*.jsonl there, one LoggedExchange per line. CI sets it while
// the test suites run, and the contract module then checks every logged
// exchange against openapi.yaml.
const ExchangeLogEnv = "ORDERMSG_EXCHANGE_LOG"

// LoggedExchange is one request the fake served and its answer.
type LoggedExchange struct {
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

// exchangeLog is the process's log, or nil when ExchangeLogEnv is unset.
var exchangeLog = sync.OnceValue(func() *exchangeLogger {
	dir := os.Getenv(ExchangeLogEnv)
	if dir == "" {
		return nil
	}
	l, err := newExchangeLogger(dir)
	if err != nil {
		panic("ordermsgtest: " + ExchangeLogEnv + ": " + err.Error())
	}
	return l
})

// newExchangeLogger starts a new log file in dir.
func newExchangeLogger(dir string) (*exchangeLogger, error) {
	f, err := os.CreateTemp(dir, "exchanges-*.jsonl")
	if err != nil {
		return nil, err
	}
	return &exchangeLogger{enc: json.NewEncoder(f)}, nil
}

type exchangeLogger struct {
	mu  sync.Mutex
	enc *json.Encoder
}

// record logs r and its reply; a nil logger does nothing.
func (l *exchangeLogger) record(r *http.Request, rep reply) {
	if l == nil {
		return
	}
	ex := LoggedExchange{Method: r.Method, Target: r.URL.RequestURI(), Header: r.Header}
	if rep.fault != FaultDrop && rep.fault != FaultCutBody {
		ex.Status, ex.ResponseHeader, ex.Body = rep.status, rep.header, rep.body
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.enc.Encode(ex); err != nil {
		panic("ordermsgtest: " + ExchangeLogEnv + ": " + err.Error())
	}
}
