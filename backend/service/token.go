package service

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
)

// A token of the local API is "<client id>.<secret>": the id is not secret
// and selects the record to compare against; the secret is 32 bytes (256
// bits) from crypto/rand in unpadded base64url (43 characters). The owner's
// token has the id OwnerRequester; a paired client's, its client id.
const (
	tokenSecretBytes = 32
	maxTokenLen      = 256
)

// Digest is the SHA-256 of a token: what is stored and compared, never the
// token itself.
type Digest [sha256.Size]byte

// DigestOf returns the SHA-256 digest of a token.
func DigestOf(token string) Digest { return sha256.Sum256([]byte(token)) }

// Equal compares two digests in constant time.
func (d Digest) Equal(o Digest) bool { return subtle.ConstantTimeCompare(d[:], o[:]) == 1 }

// MintToken returns a new token for clientID and its digest. Errors: the
// system's random source failing.
func MintToken(clientID string) (string, Digest, error) {
	var secret [tokenSecretBytes]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return "", Digest{}, fmt.Errorf("read random token: %w", err)
	}
	tok := clientID + "." + base64.RawURLEncoding.EncodeToString(secret[:])
	return tok, DigestOf(tok), nil
}

// TokenShape says what is wrong with a presented token's form ("" when it
// has the form of a Ferry token) and returns its client id. It never looks
// at whether the token is valid.
func TokenShape(tok string) (clientID string, problem string) {
	if len(tok) > maxTokenLen {
		return "", "the token is too long"
	}
	id, secret, ok := strings.Cut(tok, ".")
	if !ok || id == "" || !ValidClientID(id) {
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

// ValidClientID reports whether id has the form of a client id: 1 to 64
// of a-z, 0-9, '_' and '-'.
func ValidClientID(id string) bool {
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
