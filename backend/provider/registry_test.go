package provider

import (
	"slices"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func nopFactory(Env) (Adapter, error) { return nil, nil }

func TestRegistry(t *testing.T) {
	Register("zz-test-b", nopFactory)
	Register("ZZ-Test-A", nopFactory)

	t.Run("ids are listed sorted and lower-cased", func(t *testing.T) {
		ids := IDs()
		if !slices.IsSorted(ids) {
			t.Fatalf("IDs() = %v, not sorted", ids)
		}
		if !slices.Contains(ids, "zz-test-a") || !slices.Contains(ids, "zz-test-b") {
			t.Fatalf("IDs() = %v, want both test ids", ids)
		}
	})
	t.Run("a duplicate id panics", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Fatal("registering zz-test-a twice did not panic")
			}
		}()
		Register("zz-test-a", nopFactory)
	})
	t.Run("an empty id panics", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Fatal("registering an empty id did not panic")
			}
		}()
		Register(" ", nopFactory)
	})
	t.Run("lookup is case-insensitive", func(t *testing.T) {
		if _, err := Lookup("ZZ-TEST-B"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a site without an adapter is capability_missing naming the known ones", func(t *testing.T) {
		_, err := Lookup("nope")
		if errs.CodeOf(err) != errs.CapabilityMissing {
			t.Fatalf("Lookup(nope) = %v, want capability_missing", err)
		}
	})
	t.Run("new refuses an env without a page", func(t *testing.T) {
		if _, err := New(Env{}); errs.CodeOf(err) != errs.BadInput {
			t.Fatalf("New(Env{}) = %v, want bad_input", err)
		}
	})
}
