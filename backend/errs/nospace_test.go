package errs

import (
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

func TestIsNoSpaceKnowsAFullDiskWrappedOrNot(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"ENOSPC", syscall.ENOSPC, true},
		{"a quota exceeded", syscall.EDQUOT, true},
		{"ENOSPC in a path error, wrapped", fmt.Errorf("save zip: %w", &fs.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}), true},
		{"permission denied", &fs.PathError{Op: "write", Path: "x", Err: fs.ErrPermission}, false},
		{"no error", nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsNoSpace(tc.err); got != tc.want {
				t.Fatalf("IsNoSpace(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
