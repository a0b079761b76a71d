package main

import (
	"bufio"
	"context"
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/ordermsg/ordermsg-go/internal/safefile"
)

// websiteLine is a website of --websites FILE: its id and key, and the line
// it is on.
type websiteLine struct {
	id   int64
	key  string
	line int
}

// websitesFileForm says what a line of --websites FILE holds, for the
// messages that refuse one.
const websitesFileForm = "want one website a line, WEBSITE_ID API_KEY (blank lines and lines that begin with # aside)"

// readWebsites reads --websites FILE: one website a line, its id and its
// API key separated by spaces or tabs; blank lines and lines whose first
// character other than a space is # are left out. checkKey refuses a key
// that no client can take. Every error is a usage error (exit 2) that names
// a bad line by its number and never shows what it holds, for the line may
// be a key. A FILE that group or others may read or write is refused, as
// ssh refuses such a key file (Windows keeps no such bits); so is a device
// or a socket. A FIFO (a shell's <(…)) is read, its open waiting for a
// writer until ctx ends. A UTF-8 byte order mark before the first line is
// left out, as editors may write one.
func readWebsites(ctx context.Context, path string, checkKey func(key string) error) ([]websiteLine, error) {
	f, err := safefile.OpenWaiting(ctx, path, os.O_RDONLY)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, usagef("--websites %s: %v", path, unwrapPath(err))
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		return nil, usagef("--websites %s: %v", path, unwrapPath(err))
	case info.IsDir():
		return nil, usagef("--websites %s is a folder: %s", path, websitesFileForm)
	case info.Mode()&(os.ModeDevice|os.ModeSocket) != 0:
		return nil, usagef("--websites %s is a device or a socket, not a file: %s", path, websitesFileForm)
	case runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0:
		return nil, usagef("--websites %s: its permissions %04o let group or others read or write it, and it holds API keys: "+
			"make it readable by you alone (chmod 600 %s)", path, info.Mode().Perm(), path)
	}
	var out []websiteLine
	lineOf := map[int64]int{}
	lines := bufio.NewScanner(f)
	n := 0
	for lines.Scan() {
		n++
		text := lines.Text()
		if n == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		text = strings.TrimSpace(text)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 {
			return nil, usagef("--websites %s: line %d has %s: %s", path, n, counted(len(fields), "word"), websitesFileForm)
		}
		id, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || id <= 0 {
			return nil, usagef("--websites %s: line %d does not begin with a website id (a positive integer): %s", path, n, websitesFileForm)
		}
		if first, ok := lineOf[id]; ok {
			return nil, usagef("--websites %s: line %d lists website %d again (first on line %d): a website is listed once", path, n, id, first)
		}
		if err := checkKey(fields[1]); err != nil {
			return nil, usagef("--websites %s: line %d: %v", path, n, err)
		}
		lineOf[id] = n
		out = append(out, websiteLine{id: id, key: fields[1], line: n})
	}
	if err := lines.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, usagef("--websites %s: line %d is too long: %s", path, n+1, websitesFileForm)
		}
		return nil, usagef("--websites %s: %v", path, unwrapPath(err))
	}
	if len(out) == 0 {
		return nil, usagef("--websites %s lists no website: %s", path, websitesFileForm)
	}
	return out, nil
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
