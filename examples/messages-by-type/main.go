// Command messages-by-type counts a website's messages of each observed
// message type, with one filtered List call per type, and shows the newest
// message of each.
//
//	go run ./examples/messages-by-type
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// Environment variables that name a real service. With none of them set, the
// program runs against the built-in fake of package ordermsgtest.
const (
	envBaseURL   = "ORDERMSG_BASE_URL"
	envAPIKey    = "ORDERMSG_API_KEY"
	envWebsiteID = "ORDERMSG_WEBSITE_ID"
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

// connect returns a client and the website to read: the service the
// environment names, or the fake service when none of the variables is set
// (it says so on stderr). close releases the client or the fake.
func connect(getenv func(string) string) (c *ordermsg.Client, websiteID int64, close func(), err error) {
	vars := []struct{ name, value string }{
		{envBaseURL, getenv(envBaseURL)}, {envAPIKey, getenv(envAPIKey)}, {envWebsiteID, getenv(envWebsiteID)},
	}
	var missing []string // in the order of vars, so the message is stable
	for _, v := range vars {
		if v.value == "" {
			missing = append(missing, v.name)
		}
	}
	if len(missing) == len(vars) {
		srv := ordermsgtest.NewServer(nil)
		if c, err = srv.Client(); err != nil {
			srv.Close()
			return nil, 0, nil, err
		}
		fmt.Fprintf(os.Stderr, "no %s, %s or %s set: using the built-in fake service at %s\n", envBaseURL, envAPIKey, envWebsiteID, srv.URL)
		return c, srv.WebsiteID, srv.Close, nil
	}
	if len(missing) > 0 {
		return nil, 0, nil, fmt.Errorf("set %s too, or none of the three to use the fake service", strings.Join(missing, " and "))
	}
	if websiteID, err = strconv.ParseInt(vars[2].value, 10, 64); err != nil || websiteID <= 0 {
		return nil, 0, nil, fmt.Errorf("%s=%q: want a positive integer", envWebsiteID, vars[2].value)
	}
	if c, err = ordermsg.NewClient(vars[0].value, vars[1].value); err != nil {
		return nil, 0, nil, err
	}
	return c, websiteID, c.CloseIdleConnections, nil
}

func run(ctx context.Context) error {
	c, websiteID, closeFn, err := connect(os.Getenv)
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
