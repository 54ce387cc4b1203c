package core

import (
	"strings"
	"testing"
)

// TestTheServiceContractStaysLight: package service (the contract every
// face imports) and hub/client (its remote implementation) pull in no
// browser, store, journal, artifact, site or provider code, so that a face
// built on them stays small and CGO-free.
func TestTheServiceContractStaysLight(t *testing.T) {
	heavy := []string{
		"github.com/go-rod/", "github.com/dgraph-io/badger",
		"github.com/ferrydesk/ferry/backend/browser", "github.com/ferrydesk/ferry/backend/store",
		"github.com/ferrydesk/ferry/backend/job", "github.com/ferrydesk/ferry/backend/artifact",
		"github.com/ferrydesk/ferry/backend/site", "github.com/ferrydesk/ferry/backend/provider",
		"github.com/ferrydesk/ferry/backend/core", "github.com/ferrydesk/ferry/backend/jobs",
		"github.com/ferrydesk/ferry/backend/runs",
	}
	deps := listDeps(t, "./backend/...")
	for _, pkg := range []string{"github.com/ferrydesk/ferry/backend/service", "github.com/ferrydesk/ferry/backend/hub/client"} {
		ds, ok := deps[pkg]
		if !ok {
			t.Fatalf("go list does not know %s", pkg)
		}
		for _, d := range ds {
			for _, h := range heavy {
				if strings.HasPrefix(d, h) {
					t.Errorf("%s depends on %s", pkg, d)
				}
			}
		}
	}
}

// TestTheRecordsAreALeaf: the pipeline, the store and every face use the
// records of package record, so it depends on nothing of Ferry's but the
// error envelope and redaction.
func TestTheRecordsAreALeaf(t *testing.T) {
	const backend = "github.com/ferrydesk/ferry/backend/"
	ds, ok := listDeps(t, "./backend/...")[backend+"record"]
	if !ok {
		t.Fatalf("go list does not know %srecord", backend)
	}
	for _, d := range ds {
		if strings.HasPrefix(d, "github.com/ferrydesk/ferry/") && d != backend+"errs" && d != backend+"redact" {
			t.Errorf("record depends on %s", d)
		}
	}
}
