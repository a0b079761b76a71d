// Package exampleenv is the set-up the programs under examples/ share: a
// client of the service that the environment names, or of the built-in
// fake when it names none.
package exampleenv

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// EnvWebsiteID names the website an example reads. The client's variables
// are the SDK's: ordermsg.EnvBaseURL, ordermsg.EnvAPIKey and
// ordermsg.EnvVersionHeader.
const EnvWebsiteID = "ORDERMSG_WEBSITE_ID"

// Connect returns a client and the website to read. With ORDERMSG_BASE_URL,
// ORDERMSG_API_KEY and ORDERMSG_WEBSITE_ID set, the client is
// ordermsg.NewClientFromEnv's, so ORDERMSG_VERSION_HEADER sets its version
// header. With none of the three set, it is a client of the built-in fake
// of package ordermsgtest, and Connect says so on stderr. With some set
// but not all, it is an error naming those missing. close releases the
// client, or stops the fake.
func Connect() (c *ordermsg.Client, websiteID int64, close func(), err error) {
	names := []string{ordermsg.EnvBaseURL, ordermsg.EnvAPIKey, EnvWebsiteID}
	var missing []string // in the order of names, so the message is stable
	for _, name := range names {
		if os.Getenv(name) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) == len(names) {
		srv := ordermsgtest.NewServer(nil)
		if c, err = srv.Client(); err != nil {
			srv.Close()
			return nil, 0, nil, err
		}
		fmt.Fprintf(os.Stderr, "no %s, %s or %s set: using the built-in fake service at %s\n", names[0], names[1], names[2], srv.URL)
		return c, srv.WebsiteID, srv.Close, nil
	}
	if len(missing) > 0 {
		return nil, 0, nil, fmt.Errorf("set %s too, or none of %s to use the fake service", strings.Join(missing, " and "), strings.Join(names, ", "))
	}
	v := os.Getenv(EnvWebsiteID)
	if websiteID, err = strconv.ParseInt(v, 10, 64); err != nil || websiteID <= 0 {
		return nil, 0, nil, fmt.Errorf("%s=%q: want a positive integer", EnvWebsiteID, v)
	}
	if c, err = ordermsg.NewClientFromEnv(); err != nil {
		return nil, 0, nil, err
	}
	return c, websiteID, c.CloseIdleConnections, nil
}
