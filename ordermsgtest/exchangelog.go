package ordermsgtest

import (
	"net/http"

	"github.com/ordermsg/ordermsg-go/internal/exchangelog"
)

// logged returns r and its reply as the exchange log records them (see
// internal/exchangelog: only the repository's own tests turn it on).
func logged(r *http.Request, rep reply) exchangelog.Exchange {
	ex := exchangelog.Exchange{Method: r.Method, Target: r.URL.RequestURI(), Header: r.Header}
	if rep.fault != FaultDrop && rep.fault != FaultCutBody {
		ex.Status, ex.ResponseHeader, ex.Body = rep.status, rep.header, rep.body
	}
	return ex
}
