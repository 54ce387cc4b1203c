package core

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/hub/hubfile"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/version"
)

// TestAClientOfAnotherWireRevisionGetsVersionMismatch: a real owner (the hub
// over a core in a temporary data directory) refuses clients that state
// another wire revision with version_mismatch naming both versions and the
// process to restart (a plain API client that states none is served); GET /v1/whoami still answers with
// the owner's version, which is how `ferry doctor` shows the mismatch.
func TestAClientOfAnotherWireRevisionGetsVersionMismatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	o := startOwner(t, ctx, t.TempDir(), OwnerOptions{})
	defer o.stop(t)
	ep, err := client.Discover(ctx, o.c.Paths().HubFile())
	if err != nil {
		t.Fatal(err)
	}
	if ep.Owner != service.This() {
		t.Fatalf("discovered owner %+v, want %+v", ep.Owner, service.This())
	}
	if _, err := client.New(ep).ListSessions(ctx, service.SessionQuery{}); err != nil {
		t.Fatalf("a client of this build: %v", err)
	}

	cases := []struct {
		name, hint string
		peer       service.Peer
	}{
		{"a newer client is told to restart the owner", "the running owner is the older", service.Peer{Version: "9.9.9", Wire: service.WireRevision + 1}},
		{"an older client is told to restart itself", "the client is the older", service.Peer{Version: "0.0.1", Wire: service.WireRevision - 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cl := client.New(ep, client.WithPeer(tc.peer))
			_, err := cl.ListSessions(ctx, service.SessionQuery{})
			if !errs.Has(err, errs.VersionMismatch) {
				t.Fatalf("list sessions: %v, want version_mismatch", err)
			}
			e := errs.From(err)
			if !strings.Contains(e.Message, tc.peer.Version) || !strings.Contains(e.Message, version.Version) || !strings.Contains(e.RetryHint, tc.hint) {
				t.Fatalf("envelope %+v", e)
			}
			if spec, _ := errs.Lookup(errs.VersionMismatch); spec.Class != errs.ClassBlocked {
				t.Fatalf("version_mismatch is %v, want blocked before send", spec.Class)
			}
			if _, err := cl.CreateJob(ctx, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "never"}); !errs.Has(err, errs.VersionMismatch) {
				t.Fatalf("create job: %v", err)
			}
			who, err := cl.WhoAmI(ctx)
			if err != nil || who.Version != version.Version || who.Wire != service.WireRevision {
				t.Fatalf("whoami across revisions: %+v %v", who, err)
			}
		})
	}
	t.Run("a plain API client that states no revision is served and told the owner's", func(t *testing.T) {
		hf, err := hubfile.Read(o.c.Paths().HubFile())
		if err != nil {
			t.Fatal(err)
		}
		get := func(path string, header ...string) (*http.Response, []byte) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+ep.Host()+path, nil)
			req.Header.Set("Authorization", "Bearer "+hf.Token)
			for i := 0; i+1 < len(header); i += 2 {
				req.Header.Set(header[i], header[i+1])
			}
			resp, err := (&http.Client{Transport: &http.Transport{Proxy: nil}}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var b json.RawMessage
			_ = json.NewDecoder(resp.Body).Decode(&b)
			return resp, b
		}
		resp, body := get("/v1/sessions")
		if resp.StatusCode != http.StatusOK || resp.Header.Get(service.HeaderWire) != strconv.Itoa(service.WireRevision) {
			t.Fatalf("without the handshake: %d %v %s", resp.StatusCode, resp.Header, body)
		}
		for _, h := range [][]string{{service.HeaderWire, "two"}, {service.HeaderVersion, "1.0.0"}} {
			resp, body := get("/v1/sessions", h...)
			var env errs.Envelope
			if resp.StatusCode != http.StatusConflict || json.Unmarshal(body, &env) != nil || env.Code != errs.VersionMismatch {
				t.Fatalf("stating %v: %d %s, want version_mismatch", h, resp.StatusCode, body)
			}
		}
		resp, body = get("/v1/whoami")
		var who hub.WhoAmI
		if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &who) != nil || who.Version != version.Version || who.Wire != service.WireRevision {
			t.Fatalf("whoami without the handshake: %d %s", resp.StatusCode, body)
		}
		if resp.Header.Get(service.HeaderWire) != strconv.Itoa(service.WireRevision) || resp.Header.Get(service.HeaderVersion) != version.Version {
			t.Fatalf("the owner's answer states %v", resp.Header)
		}
	})
}
