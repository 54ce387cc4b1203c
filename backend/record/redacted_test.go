package record

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestARedactedRunKeepsNoSecretAndTheRestAsItWas(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, tc := range []struct {
		name       string
		r          *Run
		gone, kept []string
	}{
		{"a run with nothing secret prints as is",
			&Run{ID: "run-plain", Site: "chatgpt", Prompt: "p", State: StateDone, Created: at, Updated: at, ConversationURL: "https://chatgpt.com/c/abc"},
			nil, []string{`"conversationUrl":"https://chatgpt.com/c/abc"`}},
		{"a run's addresses lose their query, fragment and userinfo and its evidence its secrets", &Run{
			ID: "run-secret", Site: "chatgpt", Prompt: "p", State: StateFailed, Created: at, Updated: at,
			ConversationURL: "https://user:pw@chatgpt.com/c/abc?token=t1#frag",
			Routing:         &Routing{ControlledTabID: "T1", URL: "https://chatgpt.com/c/abc?sig=x"},
			Error:           errs.New(errs.SessionStale, "gone").WithEvidence("auth_token", "s3cret").WithEvidence("tab", "T1"),
			Receipts:        []Receipt{{Layer: "send", At: at, Data: map[string]string{"Cookie": "c=1", "hash": "h"}}},
		}, []string{"s3cret", "token=t1", "sig=x", "c=1", "user:pw", "frag"},
			[]string{`"conversationUrl":"https://chatgpt.com/c/abc"`, `"tab":"T1"`, `"hash":"h"`, `"controlled_tab_id":"T1"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := json.Marshal(tc.r)
			b, err := json.Marshal(tc.r.Redacted())
			if err != nil {
				t.Fatal(err)
			}
			got := string(b)
			for _, s := range tc.gone {
				if strings.Contains(got, s) {
					t.Errorf("%q survived: %s", s, got)
				}
			}
			for _, s := range tc.kept {
				if !strings.Contains(got, s) {
					t.Errorf("%q is lost: %s", s, got)
				}
			}
			if after, _ := json.Marshal(tc.r); string(after) != string(before) {
				t.Errorf("redacting changed the run itself:\n%s\n%s", before, after)
			}
		})
	}
}
