package bodybuf

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadAtMostKeepsEveryByteAndStopsAtTheLimit(t *testing.T) {
	for _, n := range []int{0, 1, firstChunk - 1, firstChunk, firstChunk + 1, 3*largestChunk + 5} {
		want := bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n]
		for name, r := range map[string]io.Reader{
			"whole":       bytes.NewReader(want),
			"one byte":    iotest.OneByteReader(bytes.NewReader(want)),
			"data at EOF": iotest.DataErrReader(bytes.NewReader(want)),
		} {
			got, err := ReadAtMost(r, int64(n)+1)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%d bytes, %s: got %d bytes, %v", n, name, len(got), err)
			}
		}
		if n > 0 {
			got, err := ReadAtMost(bytes.NewReader(want), int64(n-1))
			if err != nil || !bytes.Equal(got, want[:n-1]) {
				t.Errorf("%d bytes, limit %d: got %d bytes, %v", n, n-1, len(got), err)
			}
		}
	}
	cut := io.MultiReader(strings.NewReader("partial"), iotest.ErrReader(io.ErrUnexpectedEOF))
	if got, err := ReadAtMost(cut, 1<<20); string(got) != "partial" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cut body: %q, %v", got, err)
	}
}
