package chatgpt_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// TestATurnRefusedAsTooLongLeavesTheAddressOfTheConversation: a prompt sent
// just after a new chat's first turn, while the tab still shows the chat's
// transient address, and refused as the conversation being too long (seen
// on the page, the stream not read) still leaves the adapter naming the
// conversation's lasting address: the run starts a new chat next and
// records the one it leaves.
func TestATurnRefusedAsTooLongLeavesTheAddressOfTheConversation(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	// The page keeps the transient address 5 s after the first turn.
	tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{
		Scenario: sim.ScenarioLocalChatURL, Params: map[string]string{"durable_after": "5000"}})
	first, err := tab.Ask(t, ctx, providertest.Request{Prompt: "The first turn of a long crossing"})
	if err != nil || first.ConversationID == "" {
		t.Fatalf("first turn: %v (conversation %q)", err, first.ConversationID)
	}
	reg, err := tab.Sites.Merge(site.Override{ID: chatgpt.ID, Stream: &site.StreamOverride{Disabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := reg.Get(chatgpt.ID)
	if err != nil {
		t.Fatal(err)
	}
	a, err := chatgpt.New(provider.Env{Page: tab.Page, Site: s, Sites: reg, ReadyTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	dom := &providertest.Tab{H: tab.H, Page: tab.Page, Site: s, Sites: reg, Adapter: a}
	_, err = dom.Ask(t, ctx, providertest.Request{Prompt: "One crossing too many\n" + sim.Directive(sim.ScenarioConversationTooLong)})
	if errs.CodeOf(err) != errs.ConversationTooLong {
		t.Fatalf("got %v, want conversation_too_long", err)
	}
	u, err := a.ConversationURL(ctx)
	if err != nil || !strings.HasSuffix(u, "/c/"+first.ConversationID) {
		t.Fatalf("the adapter names %q (%v), want the lasting address of conversation %s", u, err, first.ConversationID)
	}
}
