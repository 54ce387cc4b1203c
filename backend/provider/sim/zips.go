package sim

import (
	"fmt"
	"io"

	"github.com/ferrydesk/ferry/backend/provider/sim/simzip"
)

// ZipBytes returns the bytes the sandbox serves for a scenario's zip (test
// oracle for download checks). kind is one of the scenario names of the zip
// family; size is the zip_size parameter (0 = small); index is 1-based.
func ZipBytes(scenario string, size int64, index int) ([]byte, error) {
	a := codeModeAnswer(Scenario{Name: scenario, Params: map[string]string{"zip_size": fmt.Sprint(size)}}, "")
	if index < 1 || index > len(a.Zips) {
		return nil, fmt.Errorf("zip bytes: index %d out of 1..%d", index, len(a.Zips))
	}
	r, n, err := simzip.Open(a.Zips[index-1])
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	_, err = io.ReadFull(r, b)
	return b, err
}
