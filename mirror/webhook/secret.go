package webhook

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"

	"github.com/ordermsg/ordermsg-go/internal/safefile"
)

// SecretPrefix begins every secret in its text form: whsec_ and then the
// key's bytes in standard base64, as Standard Webhooks libraries write and
// read it.
const SecretPrefix = "whsec_"

// MinSecretBytes is the shortest key a secret may hold, the lower bound
// the Standard Webhooks specification gives.
const MinSecretBytes = 24

// maxSecretFile bounds what ReadSecretFile reads: a secret is far shorter.
const maxSecretFile = 4096

// shown is how a Secret prints, whatever the verb.
const shown = "whsec_[redacted]"

// Secret is the key that signs each delivery. Its key never shows: String,
// GoString, every fmt verb and slog print "whsec_[redacted]", and the
// errors about it never quote it.
type Secret struct {
	key []byte
}

// ParseSecret reads a secret of the form whsec_<base64>, the form that
// Standard Webhooks libraries generate. Spaces and line ends around it are
// left out.
func ParseSecret(text string) (Secret, error) {
	text = strings.TrimSpace(text)
	encoded, ok := strings.CutPrefix(text, SecretPrefix)
	switch {
	case text == "":
		return Secret{}, errors.New("webhook: the secret is empty: want whsec_ followed by base64")
	case !ok:
		return Secret{}, errors.New("webhook: the secret does not begin with whsec_: want whsec_ followed by base64")
	}
	key, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return Secret{}, errors.New("webhook: the secret is not standard base64 after whsec_ (as `openssl rand -base64 32` writes it)")
	}
	if len(key) < MinSecretBytes {
		return Secret{}, fmt.Errorf("webhook: the secret holds %d bytes: want at least %d (`openssl rand -base64 32` makes 32)", len(key), MinSecretBytes)
	}
	return Secret{key: key}, nil
}

// ReadSecretFile reads a secret (ParseSecret's form) from the file at
// path. As ssh refuses a key file, it refuses a file that group or others
// may read or write (Windows keeps no such bits), a folder, a device and a
// socket; a FIFO is read, its open waiting for a writer until ctx ends.
// Its errors name the path and never what the file holds.
func ReadSecretFile(ctx context.Context, path string) (Secret, error) {
	f, err := safefile.OpenWaiting(ctx, path, os.O_RDONLY)
	switch {
	case err != nil && ctx.Err() != nil:
		return Secret{}, ctx.Err()
	case err != nil:
		return Secret{}, fmt.Errorf("webhook: secret file %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		return Secret{}, fmt.Errorf("webhook: secret file %s: %w", path, unwrapPath(err))
	case info.IsDir():
		return Secret{}, fmt.Errorf("webhook: secret file %s is a folder", path)
	case info.Mode()&(os.ModeDevice|os.ModeSocket) != 0:
		return Secret{}, fmt.Errorf("webhook: secret file %s is a device or a socket, not a file", path)
	case runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0:
		return Secret{}, fmt.Errorf("webhook: secret file %s: its permissions %04o let group or others read or write it: "+
			"make it readable by you alone (chmod 600 %s)", path, info.Mode().Perm(), path)
	}
	text, err := io.ReadAll(io.LimitReader(f, maxSecretFile+1))
	switch {
	case err != nil:
		return Secret{}, fmt.Errorf("webhook: secret file %s: %w", path, unwrapPath(err))
	case len(text) > maxSecretFile:
		return Secret{}, fmt.Errorf("webhook: secret file %s is longer than %d bytes: want one secret, whsec_ followed by base64", path, maxSecretFile)
	}
	s, err := ParseSecret(string(text))
	if err != nil {
		return Secret{}, fmt.Errorf("webhook: secret file %s: %s", path, strings.TrimPrefix(err.Error(), "webhook: "))
	}
	return s, nil
}

// unwrapPath is the cause of a *os.PathError, whose text repeats the path
// the message names already; other errors as they are.
func unwrapPath(err error) error {
	var pathErr *os.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err
	}
	return err
}

// IsZero reports whether s holds no key (the zero Secret).
func (s Secret) IsZero() bool { return len(s.key) == 0 }

// String is "whsec_[redacted]": the key never shows.
func (s Secret) String() string { return shown }

// GoString is "whsec_[redacted]", for %#v.
func (s Secret) GoString() string { return shown }

// Format prints "whsec_[redacted]" for every verb, %x and %q included.
func (s Secret) Format(f fmt.State, _ rune) { io.WriteString(f, shown) }

// LogValue is "whsec_[redacted]", for log/slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(shown) }

// MarshalText is "whsec_[redacted]", so that encoders never write the key.
func (s Secret) MarshalText() ([]byte, error) { return []byte(shown), nil }
