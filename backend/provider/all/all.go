// Package all imports every provider adapter, so that importing it makes
// all of them available through provider.Lookup.
package all

import (
	// Adapters register themselves in init.
	_ "github.com/ferrydesk/ferry/backend/provider/chatgpt"
)
