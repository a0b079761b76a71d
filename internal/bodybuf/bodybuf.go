// Package bodybuf reads response bodies up to a limit, into memory that
// grows with the bytes that arrive.
package bodybuf

import (
	"io"
	"slices"
)

// Chunk sizes of ReadAtMost: they double from the first to the largest.
const (
	firstChunk   = 4 << 10
	largestChunk = 1 << 20
)

// ReadAtMost reads r to its end or to limit bytes, and returns what it read
// with the error that ended the read (nil at EOF). Memory grows with the
// bytes that arrive, never with what a Content-Length announces, and peaks at
// about 2N for N bytes (chunks, then one exact slice; bytes.Buffer: 3N).
func ReadAtMost(r io.Reader, limit int64) ([]byte, error) {
	r = io.LimitReader(r, limit)
	var chunks [][]byte
	for size := firstChunk; ; size = min(size*2, largestChunk) {
		chunk := make([]byte, size)
		n, err := readFull(r, chunk)
		chunk = chunk[:n]
		if err != nil && chunks == nil {
			return chunk, ignoreEOF(err)
		}
		chunks = append(chunks, chunk)
		if err != nil {
			return slices.Concat(chunks...), ignoreEOF(err)
		}
	}
}

// readFull is io.ReadFull without its ErrUnexpectedEOF: a short read at the
// end of the body gives io.EOF.
func readFull(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func ignoreEOF(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}
