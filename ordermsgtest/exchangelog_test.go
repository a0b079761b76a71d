package ordermsgtest

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestExchangeLogRecordsWhatTheFakeAnswered(t *testing.T) {
	dir := t.TempDir()
	l, err := newExchangeLogger(dir)
	if err != nil {
		t.Fatal(err)
	}
	ok, _ := http.NewRequest(http.MethodGet, "http://fake/websites/1/orders?count=2&includes=user", nil)
	ok.Header.Set(VersionHeader, APIVersion)
	cut, _ := http.NewRequest(http.MethodGet, "http://fake/websites/1/messages/7", nil)
	answer := jsonReply(map[string]string{"object": "list"})
	cutAnswer := answer
	cutAnswer.fault = FaultCutBody
	l.record(ok, answer)
	l.record(cut, cutAnswer)
	var nilLog *exchangeLogger
	nilLog.record(ok, answer) // logging off: nothing, no panic

	files, _ := filepath.Glob(filepath.Join(dir, "exchanges-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("log files: %v", files)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []LoggedExchange
	for lines := bufio.NewScanner(f); lines.Scan(); {
		var ex LoggedExchange
		if err := json.Unmarshal(lines.Bytes(), &ex); err != nil {
			t.Fatal(err)
		}
		got = append(got, ex)
	}
	want := []LoggedExchange{
		{Method: "GET", Target: "/websites/1/orders?count=2&includes=user", Header: ok.Header,
			Status: 200, ResponseHeader: answer.header, Body: answer.body},
		{Method: "GET", Target: "/websites/1/messages/7", Header: http.Header{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("logged\n%+v\nwant\n%+v", got, want)
	}
}
