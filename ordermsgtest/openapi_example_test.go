package ordermsgtest_test

import (
	"bufio"
	"fmt"
	"net/http"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// A running fake serves the API's OpenAPI description, for generators and
// mock tools.
func ExampleServer_OpenAPIURL() {
	srv := ordermsgtest.NewServer(nil)
	defer srv.Close()
	resp, err := http.Get(srv.OpenAPIURL())
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	first, _ := bufio.NewReader(resp.Body).ReadString('\n')
	fmt.Print(resp.Header.Get("Content-Type"), ": ", first)
	// Output: application/yaml: openapi: 3.1.0
}
