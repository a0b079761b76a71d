package main

import "strconv"

// counted is n and noun, the noun in the plural unless n is 1: "1 website",
// "3 websites".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
