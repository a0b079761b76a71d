package ordermsg

import (
	"context"
	"fmt"

	"github.com/ordermsg/ordermsg-go/internal/safefile"
)

// DownloadFile downloads the file f (see Download) to path, the way a shell
// redirect writes a file, and returns the number of bytes written.
//
// A regular file (new, or replacing an old one) is written atomically: the
// bytes go to a temporary file beside it, which is renamed to path only when
// the download is complete, so path never holds part of a file and a failed
// download leaves nothing behind. A new file gets mode 0666 less the umask; a
// replaced one keeps its mode. A symlink is followed and its target replaced,
// found the way the kernel finds it (a relative link and a ".." lead, through
// symlinked folders, where they lead for a shell's `> path`); a device or a
// FIFO (also through a symlink, such as /dev/stdout) is written through, in
// place, and the wait for a FIFO's reader ends with ctx.
func (c *Client) DownloadFile(ctx context.Context, f *File, path string, opts *DownloadOptions) (int64, error) {
	if path == "" {
		return 0, invalidArgument("DownloadFile: empty path")
	}
	out, err := safefile.Open(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("ordermsg: DownloadFile: %w", err)
	}
	n, err := c.Download(ctx, f, out, opts)
	if err != nil {
		out.Discard()
		return n, err
	}
	if err := out.Commit(); err != nil {
		return n, fmt.Errorf("ordermsg: DownloadFile: %w", err)
	}
	return n, nil
}
