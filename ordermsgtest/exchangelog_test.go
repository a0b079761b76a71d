package ordermsgtest

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ordermsg/ordermsg-go/internal/exchangelog"
)

func TestExchangeLogRecordsWhatTheFakeAnswered(t *testing.T) {
	dir := t.TempDir()
	l, err := exchangelog.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	ok, _ := http.NewRequest(http.MethodGet, "http://fake/websites/1/orders?count=2&includes=user", nil)
	ok.Header.Set(VersionHeader, APIVersion)
	cut, _ := http.NewRequest(http.MethodGet, "http://fake/websites/1/messages/7", nil)
	answer := jsonReply(map[string]string{"object": "list"})
	cutAnswer := answer
	cutAnswer.fault = FaultCutBody
	l.Record(logged(ok, answer))
	l.Record(logged(cut, cutAnswer))
	var nilLog *exchangelog.Log
	nilLog.Record(logged(ok, answer)) // logging off: nothing, no panic

	files, _ := filepath.Glob(filepath.Join(dir, exchangelog.FilePattern))
	if len(files) != 1 {
		t.Fatalf("log files: %v", files)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []exchangelog.Exchange
	for lines := bufio.NewScanner(f); lines.Scan(); {
		var ex exchangelog.Exchange
		if err := json.Unmarshal(lines.Bytes(), &ex); err != nil {
			t.Fatal(err)
		}
		got = append(got, ex)
	}
	want := []exchangelog.Exchange{
		{Method: "GET", Target: "/websites/1/orders?count=2&includes=user", Header: ok.Header,
			Status: 200, ResponseHeader: answer.header, Body: answer.body},
		{Method: "GET", Target: "/websites/1/messages/7", Header: http.Header{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("logged\n%+v\nwant\n%+v", got, want)
	}
}
