// Package setup gives the example programs a client: for the service named by
// ORDERMSG_BASE_URL, ORDERMSG_API_KEY and ORDERMSG_WEBSITE_ID when they are
// set, else for the in-process fake of package ordermsgtest.
package setup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// Environment variables that name a real service.
const (
	EnvBaseURL   = "ORDERMSG_BASE_URL"
	EnvAPIKey    = "ORDERMSG_API_KEY"
	EnvWebsiteID = "ORDERMSG_WEBSITE_ID"
)

// Target is a client and the website it reads. Close releases the fake
// service, if one was started.
type Target struct {
	Client    *ordermsg.Client
	WebsiteID int64
	Close     func()
}

// Connect returns the target the environment names, or the fake service when
// none of the variables is set; it says which on stderr, in one line.
func Connect(opts ...ordermsg.Option) (*Target, error) {
	base, key, site := os.Getenv(EnvBaseURL), os.Getenv(EnvAPIKey), os.Getenv(EnvWebsiteID)
	if base == "" && key == "" && site == "" {
		srv := ordermsgtest.NewServer(nil)
		c, err := srv.Client(opts...)
		if err != nil {
			srv.Close()
			return nil, err
		}
		fmt.Fprintf(os.Stderr, "no %s/%s/%s set: using the built-in fake service at %s\n", EnvBaseURL, EnvAPIKey, EnvWebsiteID, srv.URL)
		return &Target{Client: c, WebsiteID: srv.WebsiteID, Close: srv.Close}, nil
	}
	var missing []string
	for name, v := range map[string]string{EnvBaseURL: base, EnvAPIKey: key, EnvWebsiteID: site} {
		if v == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("set %s too, or none of the three to use the fake service", strings.Join(missing, " and "))
	}
	id, err := strconv.ParseInt(site, 10, 64)
	if err != nil || id <= 0 {
		return nil, errors.New(EnvWebsiteID + " must be a positive integer")
	}
	c, err := ordermsg.NewClient(base, key, opts...)
	if err != nil {
		return nil, err
	}
	return &Target{Client: c, WebsiteID: id, Close: c.CloseIdleConnections}, nil
}

// Run is the main of an example program: it connects (see Connect), runs
// body until it returns or Ctrl-C cancels its context, and exits with status
// 1 and one line on stderr when body fails.
func Run(body func(ctx context.Context, target *Target) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := func() error {
		target, err := Connect()
		if err != nil {
			return err
		}
		defer target.Close()
		return body(ctx, target)
	}()
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
