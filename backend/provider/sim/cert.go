package sim

import (
	"crypto/rand"
	"crypto/tls"
	"io"
	"log"

	"github.com/ferrydesk/ferry/backend/provider/sim/simcert"
)

// selfSignedCert makes a fresh certificate valid for every simulated
// hostname and loopback (simcert.New).
func selfSignedCert() (tls.Certificate, []byte, error) {
	return simcert.New(allHosts())
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("sim: crypto/rand: " + err.Error())
	}
	return b
}

// discardLogger silences net/http's TLS handshake chatter (Chromium probes and
// aborted streams are expected here).
func discardLogger() *log.Logger { return log.New(io.Discard, "", 0) }
