package clients_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"fmt"
	"github.com/ferrydesk/ferry/backend/clients"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/store"
)

func openStore(t *testing.T, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestClientsSurviveReopenWithHashedTokens(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st := openStore(t, dir)
	rec, token, err := clients.New(st).Register(ctx, "agent")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := st.Get(store.ClientKey(rec.ID))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(token)) {
		t.Fatalf("the stored client holds the token itself: %s", raw)
	}
	st.Close()
	st = openStore(t, dir)
	defer st.Close()
	reg := clients.New(st)
	got, err := reg.Authenticate(ctx, token)
	if err != nil || got.ID != rec.ID || got.Name != "agent" {
		t.Fatalf("the token after reopen: %+v %v", got, err)
	}
	if _, err := reg.Get(ctx, "c_nope"); !errs.Has(err, errs.HubNotFound) {
		t.Fatalf("unknown client: %v", err)
	}
	if list, err := reg.List(ctx); err != nil || len(list) != 1 {
		t.Fatalf("list: %+v %v", list, err)
	}
}

func TestOnlyAPairedClientsOwnTokenAuthenticates(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, t.TempDir())
	defer st.Close()
	reg := clients.New(st)
	rec, token, err := reg.Register(ctx, "agent")
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := service.MintToken(rec.ID) // the right id, another secret
	if err != nil {
		t.Fatal(err)
	}
	agent, err := reg.EnsureAgent(ctx, service.EnsureAgentRequest{Name: "claude-code", Kind: service.AgentKindMCP})
	if err != nil {
		t.Fatal(err)
	}
	tokenless, _, _ := service.MintToken(agent.ID)
	for _, c := range []struct{ name, tok string }{
		{"a token of another secret", other},
		{"a malformed token", "not-a-token"},
		{"a token of an unknown client", "c_000000000000." + token[len(rec.ID)+1:]},
		{"a token for an agent client made without one", tokenless},
	} {
		t.Run(c.name+" is refused", func(t *testing.T) {
			if _, err := reg.Authenticate(ctx, c.tok); !errs.Has(err, errs.HubUnauthorized) {
				t.Fatalf("authenticate: %v", err)
			}
		})
	}
	t.Run("a revoked client's token is refused, and the client may not act", func(t *testing.T) {
		if _, err := reg.Revoke(ctx, rec.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Authenticate(ctx, token); !errs.Has(err, errs.HubUnauthorized) {
			t.Fatalf("authenticate: %v", err)
		}
		if _, err := reg.Active(ctx, rec.ID); !errs.Has(err, errs.HubUnauthorized) {
			t.Fatalf("active: %v", err)
		}
		if _, err := reg.Edit(ctx, rec.ID, func(r *clients.Record) { r.AutoApprove = true }); !errs.Has(err, errs.BadInput) {
			t.Fatalf("edit of a revoked client: %v", err)
		}
	})
}

// clock is a test clock moved by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestPairingCodesWorkOnceAndExpire(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	p := clients.NewPairing(0, c.now)
	code, err := p.Issue()
	if err != nil || len(code.Code) != 11 || code.ExpiresAt.Sub(c.t) != clients.PairingTTL {
		t.Fatalf("code %+v %v: want XXXXX-XXXXX valid for five minutes", code, err)
	}
	if _, err := p.Redeem("127.0.0.1", code.Code); err != nil {
		t.Fatalf("a fresh code: %v", err)
	}
	if _, err := p.Redeem("127.0.0.1", code.Code); !errs.Has(err, errs.PairingCodeInvalid) {
		t.Fatalf("a used code: %v", err)
	}
	c.t = c.t.Add(2 * time.Minute)
	late, _ := p.Issue()
	c.t = c.t.Add(clients.PairingTTL)
	if _, err := p.Redeem("127.0.0.1", late.Code); !errs.Has(err, errs.PairingCodeInvalid) {
		t.Fatalf("an expired code: %v", err)
	}
}

func TestPairingGuessesAreLimitedPerAddressAndBurnAllCodes(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	p := clients.NewPairing(0, c.now)
	code, _ := p.Issue()
	for i := 0; i < 5; i++ {
		p.Redeem("127.0.0.2", "WRONG-GUESS")
	}
	retry, err := p.Redeem("127.0.0.2", code.Code)
	if !errs.Has(err, errs.HubRateLimited) || retry <= 0 || errs.From(err).Evidence["retryAfter"] == "" {
		t.Fatalf("a sixth attempt in a minute: %v %v", retry, err)
	}
	if _, err := p.Redeem("127.0.0.3", code.Code); err != nil {
		t.Fatalf("another address is not limited: %v", err)
	}
	burned, _ := p.Issue()
	for i := 0; i < 20; i++ { // one guess from each of 20 addresses: none is limited
		if _, err := p.Redeem(fmt.Sprintf("127.0.1.%d", i), "WRONG-GUESS"); !errs.Has(err, errs.PairingCodeInvalid) {
			t.Fatalf("guess %d: %v", i, err)
		}
	}
	if _, err := p.Redeem("127.0.0.4", burned.Code); !errs.Has(err, errs.PairingCodeInvalid) {
		t.Fatalf("a code after 20 failed guesses: %v, want it burned", err)
	}
}
