// Package bodybuf reads response bodies up to a limit, into memory that
// grows with the bytes that arrive, and lends reused buffers to bodies that
// are let go of once decoded.
package bodybuf

import (
	"io"
	"slices"
	"sync"
)

// Lent bodies (of a page or record decoded without its raw JSON) are read
// into reused buffers, so that a walk does not allocate and collect about
// twice each page's size (BENCHMARKS.md, "Decoding a list page"). A garbage
// collection empties pool, so free keeps a few buffers across collections:
// at most cap(free) × maxFree bytes for good.
var (
	pool = sync.Pool{New: func() any { return new([]byte) }}
	free = make(chan *[]byte, 2)
)

const (
	maxPooled = 8 << 20 // the largest buffer pool keeps
	maxFree   = 1 << 20 // the largest buffer free keeps
)

// Get returns a buffer to read a body into with ReadInto. Store the slice
// that ReadInto returns back into it (a larger body replaces the buffer) and
// give it back with Put once nothing uses the body.
func Get() *[]byte {
	select {
	case b := <-free:
		return b
	default:
		return pool.Get().(*[]byte)
	}
}

// Put gives b back; nothing may use its bytes after that.
func Put(b *[]byte) {
	if cap(*b) <= maxFree {
		select {
		case free <- b:
			return
		default:
		}
	}
	if cap(*b) <= maxPooled {
		pool.Put(b)
	}
}

// ReadInto is ReadAtMost into buf's capacity first. A body that does not fit
// ends up in one slice with an eighth to spare, so that the buffer fits the
// next, slightly larger, page too.
func ReadInto(buf []byte, r io.Reader, limit int64) ([]byte, error) {
	r = io.LimitReader(r, limit)
	n, err := readFull(r, buf[:cap(buf)])
	if err != nil {
		return buf[:n], ignoreEOF(err)
	}
	// buf is full, or has no room at all.
	rest, err := ReadAtMost(r, limit-int64(n))
	if n == 0 {
		return rest, err
	}
	if len(rest) == 0 {
		return buf[:n], err
	}
	total := n + len(rest)
	out := make([]byte, 0, total+total/8)
	return append(append(out, buf[:n]...), rest...), err
}

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
