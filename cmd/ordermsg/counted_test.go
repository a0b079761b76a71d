package main

import "testing"

func TestCounted(t *testing.T) {
	for n, want := range map[int]string{0: "0 websites", 1: "1 website", 2: "2 websites", 12: "12 websites"} {
		if got := counted(n, "website"); got != want {
			t.Errorf("counted(%d) = %q, want %q", n, got, want)
		}
	}
}
