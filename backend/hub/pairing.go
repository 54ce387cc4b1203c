package hub

import (
	"crypto/rand"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Pairing codes are 10 characters of Crockford's base32 (50 bits), shown as
// XXXXX-XXXXX. Guessing is bounded three ways: five attempts a minute per
// address, a lockout of the address after ten failures, and all open codes
// burned after twenty failures from anywhere (every local address is
// 127.0.0.x, so per-address limits alone are weak).
const (
	pairingAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	pairingCodeLen  = 10
)

type pairingLimits struct {
	perMinute    int
	lockoutAfter int
	lockoutFor   time.Duration
	globalBurn   int
}

type pairing struct {
	mu             sync.Mutex
	now            func() time.Time
	ttl            time.Duration
	limits         pairingLimits
	codes          map[Digest]time.Time // digest of the normalised code -> expiry
	addrs          map[string]*pairingAddr
	globalFailures int
}

type pairingAddr struct {
	attempts    []time.Time // within the last minute
	failures    int
	lockedUntil time.Time
}

func newPairing(ttl time.Duration, now func() time.Time, limits pairingLimits) *pairing {
	if ttl <= 0 || ttl > MaxPairingTTL {
		ttl = MaxPairingTTL
	}
	return &pairing{now: now, ttl: ttl, limits: limits, codes: map[Digest]time.Time{}, addrs: map[string]*pairingAddr{}}
}

// issue creates a new one-time code.
func (p *pairing) issue() (PairingCode, error) {
	var raw [pairingCodeLen]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return PairingCode{}, fmt.Errorf("read random pairing code: %w", err)
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
	p.codes[DigestOf(normalizeCode(code))] = exp
	return PairingCode{Code: code, ExpiresAt: exp}, nil
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

// redeem spends a code for addr. It returns nil when the code was valid (it
// is gone afterwards), errs.PairingCodeInvalid for a wrong, used or expired
// code (the three are not told apart, so the answer teaches a guesser
// nothing), or errs.HubRateLimited with retryAfter when addr is over its
// attempts or locked out.
func (p *pairing) redeem(addr, code string) (retryAfter time.Duration, err error) {
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
	if len(a.attempts) >= p.limits.perMinute {
		wait := time.Minute - now.Sub(a.attempts[0])
		return wait, errs.New(errs.HubRateLimited, "more than %d pairing attempts a minute from %s", p.limits.perMinute, addr).
			WithEvidence("retryAfter", wait.Round(time.Second).String())
	}
	a.attempts = append(a.attempts, now)

	for d, exp := range p.codes {
		if !now.Before(exp) {
			delete(p.codes, d)
		}
	}
	d := DigestOf(normalizeCode(code))
	if _, ok := p.codes[d]; ok {
		delete(p.codes, d)
		a.failures = 0
		return 0, nil
	}
	a.failures++
	p.globalFailures++
	if a.failures >= p.limits.lockoutAfter {
		a.lockedUntil = now.Add(p.limits.lockoutFor)
	}
	if p.globalFailures >= p.limits.globalBurn {
		clear(p.codes)
		p.globalFailures = 0
	}
	return 0, errs.New(errs.PairingCodeInvalid, "the pairing code is wrong, used or expired")
}
