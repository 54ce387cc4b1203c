package job

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
)

// Reattach finds the adapter's FindTurn by type assertion: an adapter that
// embeds provider.Web must keep satisfying the optional interfaces, or
// reattach silently loses the ability to collect a sent run.
func TestAdaptersBuiltOnTheWebEngineFindTurnsAndLocateConversations(t *testing.T) {
	for name, a := range map[string]provider.Adapter{"provider.Web": (*provider.Web)(nil), "chatgpt": (*chatgpt.Adapter)(nil)} {
		t.Run(name+" is a TurnFinder and a ConversationLocator", func(t *testing.T) {
			if _, ok := a.(TurnFinder); !ok {
				t.Fatalf("%T does not implement TurnFinder", a)
			}
			if _, ok := a.(ConversationLocator); !ok {
				t.Fatalf("%T does not implement ConversationLocator", a)
			}
		})
	}
}
