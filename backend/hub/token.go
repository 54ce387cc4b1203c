package hub

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
)

// A token is "<client id>.<secret>": the id is not secret and selects the
// record to compare against; the secret is 32 bytes (256 bits) from
// crypto/rand in unpadded base64url (43 characters).
const (
	tokenSecretBytes = 32
	tokenSecretLen   = 43 // base64.RawURLEncoding.EncodedLen(32)
	maxTokenLen      = 256
)

// Digest is the SHA-256 of a token: what the hub stores and compares.
type Digest [sha256.Size]byte

// DigestOf returns the SHA-256 digest of a token.
func DigestOf(token string) Digest { return sha256.Sum256([]byte(token)) }

// Equal compares two digests in constant time.
func (d Digest) Equal(o Digest) bool { return subtle.ConstantTimeCompare(d[:], o[:]) == 1 }

// mintToken returns a new token for the client id and its digest.
func mintToken(clientID string) (string, Digest, error) {
	var secret [tokenSecretBytes]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return "", Digest{}, fmt.Errorf("read random token: %w", err)
	}
	tok := clientID + "." + base64.RawURLEncoding.EncodeToString(secret[:])
	return tok, DigestOf(tok), nil
}

// newClientID returns a random, non-secret client id such as "c_1f2e3d4c5b6a".
func newClientID() (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("read random client id: %w", err)
	}
	return "c_" + hex.EncodeToString(b[:]), nil
}

// tokenShape says what is wrong with a presented token's form, or "" when it
// has the form of a Ferry token. It never looks at whether it is valid.
func tokenShape(tok string) (clientID string, problem string) {
	if len(tok) > maxTokenLen {
		return "", "the token is too long"
	}
	id, secret, ok := strings.Cut(tok, ".")
	if !ok || id == "" || !validClientID(id) {
		return "", "the token is not a Ferry token (expected <client id>.<secret>)"
	}
	raw, err := base64.RawURLEncoding.DecodeString(secret)
	if err != nil {
		return "", "the token's secret is not base64url"
	}
	if len(raw) < tokenSecretBytes {
		return "", fmt.Sprintf("the token is too short (%d bits, at least %d needed)", len(raw)*8, tokenSecretBytes*8)
	}
	return id, ""
}

func validClientID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// MarshalText encodes the digest as hex, so stored records stay readable.
func (d Digest) MarshalText() ([]byte, error) { return []byte(hex.EncodeToString(d[:])), nil }

// UnmarshalText decodes a hex digest.
func (d *Digest) UnmarshalText(b []byte) error {
	raw, err := hex.DecodeString(string(b))
	if err != nil || len(raw) != len(d) {
		return fmt.Errorf("decode token digest: want %d hex bytes", len(d))
	}
	copy(d[:], raw)
	return nil
}
