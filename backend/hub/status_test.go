package hub_test

import (
	"net/http"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
)

func TestAFullDiskIsInsufficientStorageAndOtherStatusesStay(t *testing.T) {
	cases := []struct {
		code errs.Code
		want int
	}{
		{errs.DiskFull, http.StatusInsufficientStorage},
		{errs.StoreBusy, http.StatusServiceUnavailable},
		{errs.HubUnauthorized, http.StatusUnauthorized},
		{errs.BadInput, http.StatusBadRequest},
		{errs.Timeout, http.StatusGatewayTimeout},
		{errs.StoreIO, http.StatusInternalServerError},
		{errs.LoginRequired, http.StatusConflict},
	}
	for _, tc := range cases {
		if got := hub.StatusFor(tc.code); got != tc.want {
			t.Errorf("%s: status %d, want %d", tc.code, got, tc.want)
		}
	}
}
