// Package all imports every provider adapter, so that importing it makes
// all of them available through provider.Lookup.
package all

import (
	// Adapters register themselves in init.
	_ "github.com/ferrydesk/ferry/backend/provider/aistudio"
	_ "github.com/ferrydesk/ferry/backend/provider/chatgpt"
	_ "github.com/ferrydesk/ferry/backend/provider/claude"
	_ "github.com/ferrydesk/ferry/backend/provider/custom"
	_ "github.com/ferrydesk/ferry/backend/provider/deepseek"
	_ "github.com/ferrydesk/ferry/backend/provider/gemini"
	_ "github.com/ferrydesk/ferry/backend/provider/grok"
	_ "github.com/ferrydesk/ferry/backend/provider/kimi"
)
