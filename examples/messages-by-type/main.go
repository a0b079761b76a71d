// Command messages-by-type counts a website's messages of each observed
// message type, with one filtered List call per type, and shows the newest
// message of each.
//
//	go run ./examples/messages-by-type
package main

import (
	"context"
	"fmt"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/examples/internal/setup"
)

func main() { setup.Run(run) }

func run(ctx context.Context, target *setup.Target) error {
	types := []ordermsg.MessageType{ordermsg.MessageTypeOnlineOrder, ordermsg.MessageTypeEventManagement, ordermsg.MessageTypeGeneralContact}
	for _, mt := range types {
		page, err := target.Client.Messages.List(ctx, target.WebsiteID, &ordermsg.ListMessagesOptions{
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
