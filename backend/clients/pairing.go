package clients

import (
	"crypto/rand"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Pairing codes are 10 characters of Crockford's base32 (50 bits), shown as
// XXXXX-XXXXX. Guessing is bounded three ways: five attempts a minute per
// address, a lockout of the address after ten failures, and all open codes
// burned after twenty failures from anywhere (every local address is
// 127.0.0.x, so per-address limits alone are weak).
const (
	pairingAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	pairingCodeLen  = 10

	// PairingTTL is how long a code is valid, at most.
	PairingTTL = 5 * time.Minute

	pairingPerMinute    = 5
	pairingLockoutAfter = 10
	pairingLockoutFor   = 15 * time.Minute
	pairingGlobalBurn   = 20
)

// Pairing holds the open pairing codes (only their digests) and the
// failed attempts of each address. It is safe for concurrent use.
type Pairing struct {
	mu             sync.Mutex
	now            func() time.Time
	ttl            time.Duration
	codes          map[service.Digest]time.Time // digest of the normalised code -> expiry
	addrs          map[string]*pairingAddr
	globalFailures int
}

type pairingAddr struct {
	attempts    []time.Time // within the last minute
	failures    int
	lockedUntil time.Time
}

// NewPairing returns an empty code table whose codes live ttl (PairingTTL
// when ttl is not in (0, PairingTTL]) by the clock now (time.Now when nil).
func NewPairing(ttl time.Duration, now func() time.Time) *Pairing {
	if ttl <= 0 || ttl > PairingTTL {
		ttl = PairingTTL
	}
	if now == nil {
		now = time.Now
	}
	return &Pairing{now: now, ttl: ttl, codes: map[service.Digest]time.Time{}, addrs: map[string]*pairingAddr{}}
}

// Issue draws a new one-time code. Errors: the system's random source
// failing.
func (p *Pairing) Issue() (service.PairingCode, error) {
	var raw [pairingCodeLen]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return service.PairingCode{}, fmt.Errorf("read random pairing code: %w", err)
	}
	var b strings.Builder
	for i, c := range raw {
		if i == pairingCodeLen/2 {
			b.WriteByte('-')
		}
		b.WriteByte(pairingAlphabet[int(c)%len(pairingAlphabet)]) // 256 % 32 == 0: unbiased
	}
	code := b.String()
	p.mu.Lock()
	defer p.mu.Unlock()
	exp := p.now().Add(p.ttl)
	p.codes[service.DigestOf(normalizeCode(code))] = exp
	return service.PairingCode{Code: code, ExpiresAt: exp}, nil
}

// normalizeCode applies Crockford's reading rules: case, dashes and spaces
// do not matter, O reads as 0 and I, L as 1.
func normalizeCode(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch r {
		case '-', ' ':
			continue
		case 'O':
			r = '0'
		case 'I', 'L':
			r = '1'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Redeem spends a code for addr. It returns nil when the code was valid (it
// is gone afterwards), errs.PairingCodeInvalid for a wrong, used or expired
// code (the three are not told apart, so the answer teaches a guesser
// nothing), or errs.HubRateLimited with retryAfter when addr is over its
// attempts or locked out.
func (p *Pairing) Redeem(addr, code string) (retryAfter time.Duration, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	a := p.addrs[addr]
	if a == nil {
		a = &pairingAddr{}
		p.addrs[addr] = a
	}
	if now.Before(a.lockedUntil) {
		wait := a.lockedUntil.Sub(now)
		return wait, errs.New(errs.HubRateLimited, "pairing from %s is locked for %s after %d failed attempts", addr, wait.Round(time.Second), a.failures).
			WithEvidence("retryAfter", wait.Round(time.Second).String()).
			WithHint("wait until the lock ends, then ask for a new pairing code in Ferry and type it carefully")
	}
	recent := a.attempts[:0]
	for _, t := range a.attempts {
		if now.Sub(t) < time.Minute {
			recent = append(recent, t)
		}
	}
	a.attempts = recent
	if len(a.attempts) >= pairingPerMinute {
		wait := time.Minute - now.Sub(a.attempts[0])
		return wait, errs.New(errs.HubRateLimited, "more than %d pairing attempts a minute from %s", pairingPerMinute, addr).
			WithEvidence("retryAfter", wait.Round(time.Second).String())
	}
	a.attempts = append(a.attempts, now)

	for d, exp := range p.codes {
		if !now.Before(exp) {
			delete(p.codes, d)
		}
	}
	d := service.DigestOf(normalizeCode(code))
	if _, ok := p.codes[d]; ok {
		delete(p.codes, d)
		a.failures = 0
		return 0, nil
	}
	a.failures++
	p.globalFailures++
	if a.failures >= pairingLockoutAfter {
		a.lockedUntil = now.Add(pairingLockoutFor)
	}
	if p.globalFailures >= pairingGlobalBurn {
		clear(p.codes)
		p.globalFailures = 0
	}
	return 0, errs.New(errs.PairingCodeInvalid, "the pairing code is wrong, used or expired")
}
