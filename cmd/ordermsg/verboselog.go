package main

import (
	"io"

	"github.com/ordermsg/ordermsg-go/internal/secretmask"
)

// maskedLog is stderr for the -v log. A retried failure's text may quote
// what a server sent (net/http quotes a malformed status line), so each
// line masks every key the run uses, in every spelling, as the error lines
// do: --api-key's, and those of --websites FILE (logKeys), both set
// before the first request, when the mask is made once.
type maskedLog struct{ a *app }

func (l maskedLog) Write(p []byte) (int, error) {
	l.a.logMask.once.Do(func() {
		l.a.logMask.mask = secretmask.New(append(keySecrets(l.a.apiKey), l.a.logKeys...)...)
	})
	if _, err := io.WriteString(l.a.stderr, l.a.logMask.mask.Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
