package ordermsgtest

import (
	"fmt"
	"net"
	"net/http"
	"sync"
)

// loopback is an HTTP server on a loopback port, as httptest.Server is:
// the package does not import net/http/httptest, which imports the testing
// package (from Go 1.27), so that a program that runs the fake (the
// ordermsg command) does not link it.
type loopback struct {
	url string
	ln  net.Listener
	srv *http.Server
	// serving is held for reading by every request being served; close
	// takes it to wait for them, and sets closed, after which a request
	// that was on its way is not served.
	serving sync.RWMutex
	closed  bool
}

// listenLoopback listens on a free loopback port, IPv4 or else IPv6, as
// httptest.NewUnstartedServer does; like it, it panics when it cannot.
func listenLoopback(h http.Handler) *loopback {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		if ln, err = net.Listen("tcp6", "[::1]:0"); err != nil {
			panic(fmt.Sprintf("ordermsgtest: failed to listen on a loopback port: %v", err))
		}
	}
	l := &loopback{url: "http://" + ln.Addr().String(), ln: ln}
	l.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.serving.RLock()
		defer l.serving.RUnlock()
		if l.closed {
			hangUp(w)
			return
		}
		h.ServeHTTP(w, r)
	})}
	return l
}

// start serves the requests that reach the port.
func (l *loopback) start() {
	go l.srv.Serve(l.ln)
}

// close closes the port and every connection (but the hijacked ones,
// which their handler closes), and waits for the requests being served to
// finish.
func (l *loopback) close() {
	l.srv.Close()
	l.serving.Lock()
	l.closed = true
	l.serving.Unlock()
}
