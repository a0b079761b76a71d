// Command messages-by-type counts a website's messages of each observed
// message type, with one filtered List call per type, and shows the newest
// message of each.
//
//	go run ./examples/messages-by-type
//
// With ORDERMSG_BASE_URL, ORDERMSG_API_KEY and ORDERMSG_WEBSITE_ID set it
// reads that service, with the version header ORDERMSG_VERSION_HEADER holds
// ("Acme-Api-Version: 1"); without them it starts the built-in fake.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/examples/internal/exampleenv"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	c, websiteID, closeFn, err := exampleenv.Connect()
	if err != nil {
		return err
	}
	defer closeFn()
	types := []ordermsg.MessageType{ordermsg.MessageTypeOnlineOrder, ordermsg.MessageTypeEventManagement, ordermsg.MessageTypeGeneralContact}
	for _, mt := range types {
		page, err := c.Messages.List(ctx, websiteID, &ordermsg.ListMessagesOptions{
			MessageType: mt, Count: 1, Includes: []ordermsg.MessageInclude{ordermsg.MessageIncludeFormSubmission},
		})
		if err != nil {
			return err
		}
		fmt.Printf("%-17s %5d", mt, page.Meta.Pagination.Total)
		if len(page.Data) > 0 {
			m := page.Data[0]
			from := ""
			if name := m.FormSubmission.Fields.Get("f1"); name != nil {
				from = " from " + name.FormattedValue
			}
			fmt.Printf("   newest: %s, %s%s", m.MessageTrackingNumber, m.DateCreated.Format("2006-01-02"), from)
		}
		fmt.Println()
	}
	return nil
}
