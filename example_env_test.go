package ordermsg_test

import (
	"context"
	"fmt"
	"os"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

func ExampleNewClientFromEnv() {
	// A fake service that requires the version header under the maker's
	// name, as the real one does.
	srv := ordermsgtest.NewServer(nil, ordermsgtest.WithVersionHeader("Acme-Api-Version", "1"))
	defer srv.Close()
	// What a deployment sets in its environment.
	os.Setenv(ordermsg.EnvBaseURL, srv.URL)
	os.Setenv(ordermsg.EnvAPIKey, srv.APIKey)
	os.Setenv(ordermsg.EnvVersionHeader, "Acme-Api-Version: 1")
	defer func() {
		for _, v := range []string{ordermsg.EnvBaseURL, ordermsg.EnvAPIKey, ordermsg.EnvVersionHeader} {
			os.Unsetenv(v)
		}
	}()

	// The caller's options apply after the environment's.
	c, err := ordermsg.NewClientFromEnv(ordermsg.WithUserAgent("my-app/1.2"))
	if err != nil {
		panic(err)
	}
	page, err := c.Orders.List(context.Background(), srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 3})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(page.Data), "orders")

	os.Unsetenv(ordermsg.EnvAPIKey)
	_, err = ordermsg.NewClientFromEnv()
	fmt.Println(err)
	// Output:
	// 3 orders
	// ordermsg: NewClientFromEnv: ORDERMSG_API_KEY is empty or not set
}
