package ordermsg_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ordermsg/ordermsg-go"
)

// printReadyOrder reads, from the fake, an order that has print-ready files.
func printReadyOrder(ctx context.Context, c *ordermsg.Client, websiteID int64) *ordermsg.Order {
	opts := &ordermsg.ListOrdersOptions{Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeItemsPrintReadyFiles}}
	for o, err := range c.Orders.All(ctx, websiteID, opts) {
		if err != nil {
			panic(err)
		}
		if len(o.Items) > 0 && len(o.Items[0].PrintReadyFiles) == 2 && o.Items[0].PrintReadyFiles[1].File == nil {
			return o
		}
	}
	panic("no order with print-ready files")
}

func ExampleClient_DownloadFile() {
	srv, c := fakeService()
	defer srv.Close()
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "hotfolder")
	defer os.RemoveAll(dir)

	o := printReadyOrder(ctx, c, srv.WebsiteID)
	for _, p := range o.Items[0].PrintReadyFiles {
		f, err := p.Downloadable()
		if errors.Is(err, ordermsg.ErrNoFile) {
			fmt.Println("not ready:", p.Tag, p.Status) // status failure: report it
			continue
		}
		// Use a safe name of your own: the filename comes from the server.
		n, err := c.DownloadFile(ctx, f, filepath.Join(dir, fmt.Sprintf("%d-%s.pdf", p.ID, p.Tag)), nil)
		if errors.Is(err, ordermsg.ErrLinkExpired) {
			// Read the order again with OrderIncludeItemsPrintReadyFiles
			// for a fresh link, and download that.
			continue
		}
		if err != nil {
			panic(err)
		}
		fmt.Println("downloaded", p.Tag, n > 0)
	}
	// Output:
	// downloaded front true
	// not ready: back failure
}

func ExampleClient_Download() {
	srv, c := fakeService()
	defer srv.Close()
	ctx := context.Background()
	opts := &ordermsg.ListMessagesOptions{Includes: []ordermsg.MessageInclude{ordermsg.MessageIncludeFile}}
	for m, err := range c.Messages.All(ctx, srv.WebsiteID, opts) {
		if err != nil {
			panic(err)
		}
		if m.File.Expanded == nil {
			continue
		}
		// Stream the message's file anywhere: here, count its bytes.
		n, err := c.Download(ctx, m.File.Expanded, io.Discard, &ordermsg.DownloadOptions{MaxBytes: 100 << 20})
		if err != nil {
			panic(err)
		}
		fmt.Println(m.File.Expanded.Filename, n == int64(len(srv.Handler.FileContent(m.File.Expanded.ID))))
		break
	}
	// Output:
	// attachment.pdf true
}
