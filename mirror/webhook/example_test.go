package webhook_test

import (
	"fmt"

	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// A receiver checks a delivery by computing the same signature from the
// webhook-id, webhook-timestamp and body it got, with the shared secret.
func ExampleSign() {
	secret, err := webhook.ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(webhook.Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`)))
	fmt.Println(secret)
	// Output:
	// v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=
	// whsec_[redacted]
}

// An endpoint over plain http is refused unless its host is loopback.
func ExampleCheckURL() {
	fmt.Println(webhook.CheckURL("http://127.0.0.1:8080/hooks"))
	fmt.Println(webhook.CheckURL("http://hooks.example.com/in"))
	// Output:
	// <nil>
	// webhook: the URL http://hooks.example.com/in: plain http to a host that is not loopback would send the changes and their signatures in the clear; use https
}
