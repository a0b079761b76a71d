// Package webhook delivers the mirror's changes to a web service, signed
// as the Standard Webhooks specification says (https://www.standardwebhooks.com).
package webhook
