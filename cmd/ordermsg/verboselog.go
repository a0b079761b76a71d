package main

import (
	"io"

	"github.com/ordermsg/ordermsg-go/internal/secretmask"
)

// maskedLog is stderr for the -v log. A retried failure's text may quote
// what a server sent (net/http quotes a malformed status line), so each
// line masks every key the run uses, in every spelling, as the error lines
// do: --api-key's, and those of --websites FILE (logKeys).
type maskedLog struct{ a *app }

func (l maskedLog) Write(p []byte) (int, error) {
	secrets := keySecrets(l.a.apiKey)
	for _, k := range l.a.logKeys {
		secrets = append(secrets, keySecrets(k)...)
	}
	if _, err := io.WriteString(l.a.stderr, secretmask.New(secrets...).Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
