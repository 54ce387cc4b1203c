package hub

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// setCommonHeaders applies to every response. There is deliberately no
// Access-Control-Allow-Origin: no web page may read the API's answers.
func setCommonHeaders(h http.Header) {
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	setVersionHeaders(h)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		writeEnvelope(w, http.StatusInternalServerError, errs.Wrap(err, errs.Internal, "encode response: %v", err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// writeEnvelope sends an error body: the errs envelope as JSON.
func writeEnvelope(w http.ResponseWriter, status int, e *errs.Envelope) {
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="ferry"`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(e.JSON(), '\n'))
}

// writeErr sends any error as an envelope with the status its code maps to.
func writeErr(w http.ResponseWriter, err error) {
	e := errs.From(err)
	writeEnvelope(w, StatusFor(e.Code), e)
}

func writeRateLimited(w http.ResponseWriter, retry time.Duration, e *errs.Envelope) {
	secs := retryAfterSeconds(retry)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	if e == nil {
		e = errs.New(errs.HubRateLimited, "more than the allowed messages in the rate window; retry in %d s", secs)
	}
	writeEnvelope(w, http.StatusTooManyRequests, e.WithEvidence("retryAfterSeconds", strconv.Itoa(secs)))
}

func retryAfterSeconds(d time.Duration) int {
	secs := int(math.Ceil(d.Seconds()))
	if secs < 1 {
		secs = 1
	}
	return secs
}

// StatusFor is the HTTP status the API uses for an envelope code: the
// hub's own codes first, then by the code's class.
func StatusFor(code errs.Code) int {
	switch code {
	case errs.HubUnauthorized, errs.PairingCodeInvalid:
		return http.StatusUnauthorized
	case errs.HubForbidden, errs.PolicyDenied:
		return http.StatusForbidden
	case errs.HubRateLimited:
		return http.StatusTooManyRequests
	case errs.HubNotFound, errs.SessionNotFound, errs.TargetNotFound, errs.ArtifactNotFound:
		return http.StatusNotFound
	case errs.StoreBusy:
		return http.StatusServiceUnavailable
	case errs.DiskFull:
		return http.StatusInsufficientStorage
	}
	switch spec, _ := errs.Lookup(code); spec.Class {
	case errs.ClassBadInput:
		return http.StatusBadRequest
	case errs.ClassTimeout:
		return http.StatusGatewayTimeout
	case errs.ClassInternal:
		return http.StatusInternalServerError
	default:
		return http.StatusConflict
	}
}

func methodNotAllowed(w http.ResponseWriter, method, path string, allow string) {
	w.Header().Set("Allow", allow)
	writeEnvelope(w, http.StatusMethodNotAllowed,
		errs.New(errs.BadInput, "%s is not allowed on %s (allowed: %s)", method, path, allow).
			WithHint("state changes use POST or DELETE; reads use GET"))
}

func notFound(w http.ResponseWriter, format string, args ...any) {
	writeEnvelope(w, http.StatusNotFound, errs.New(errs.HubNotFound, "%s", fmt.Sprintf(format, args...)))
}
