package core

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
)

// `ferry poll --json` and `ferry reattach --json` print the service's
// record redacted: the same bytes as the pipeline's record redacted
// (job.Redacted), whichever implementation answered.
func TestTheServiceRedactsARunAsThePipelineDoes(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	cases := []struct {
		name string
		s    *job.Session
	}{
		{"a run with nothing secret prints as is", &job.Session{ID: "run-plain", Site: "chatgpt", Prompt: "p", State: job.StateDone, Created: at, Updated: at}},
		{"a run's addresses lose their query, fragment and userinfo and its evidence its secrets", &job.Session{
			ID: "run-secret", Site: "chatgpt", Prompt: "p", State: job.StateFailed, Created: at, Updated: at,
			ConversationURL: "https://user:pw@chatgpt.com/c/abc?token=t1#frag",
			Routing:         &provider.Routing{ControlledTabID: "T1", URL: "https://chatgpt.com/c/abc?sig=x"},
			Error:           errs.New(errs.SessionStale, "gone").WithEvidence("auth_token", "s3cret").WithEvidence("tab", "T1"),
			Receipts:        []job.Receipt{{Layer: "send", At: at, Data: map[string]string{"Cookie": "c=1", "hash": "h"}}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(job.Redacted(tc.s))
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(RunOf(tc.s).Redacted())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("service:  %s\npipeline: %s", got, want)
			}
			if bytes.Contains(got, []byte("s3cret")) || bytes.Contains(got, []byte("token=t1")) || bytes.Contains(got, []byte("c=1")) {
				t.Fatalf("a secret survived: %s", got)
			}
		})
	}
}
