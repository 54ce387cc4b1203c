package service

import (
	"testing"
	"time"
)

func TestAnApprovalNamesWhereTheJobWouldRun(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	job := func(spec JobRequest, target *JobTarget) Job {
		return Job{ID: "job-1", Kind: spec.Kind, RequestedBy: "c_1", CreatedAt: at, Detail: &JobDetail{Spec: spec, Target: target}}
	}
	cases := []struct {
		name     string
		job      Job
		asked    JobRequest
		site     string
		describe string
	}{
		{"a tab of the user's names its conversation and that it continues it",
			job(JobRequest{Kind: KindAsk, TabID: "T1", Model: "gpt-5", Prompt: "hi", RequestedBy: "c_1"},
				&JobTarget{Site: "chatgpt", Where: "your existing conversation 'Tax questions'", Continues: true, Existing: true}),
			JobRequest{}, "chatgpt", "ask chatgpt (model gpt-5) in your existing conversation 'Tax questions', continuing it"},
		{"a new chat names the site and the default model",
			job(JobRequest{Kind: KindAsk, Site: "claude", Prompt: "hi", NewChat: true, RequestedBy: "c_1"}, &JobTarget{Site: "claude", Where: "a new chat"}),
			JobRequest{}, "claude", "ask claude (the site's default model) in a new chat"},
		{"the site of the request is kept over the target's",
			job(JobRequest{Kind: KindCode, Site: "chatgpt", Conversation: "abc", Prompt: "zip", RequestedBy: "c_1"},
				&JobTarget{Site: "other", Where: "its own conversation 'Build'", Continues: true}),
			JobRequest{}, "chatgpt", "code chatgpt (the site's default model) in its own conversation 'Build', continuing it"},
		{"a job without its record falls back on the request asked",
			Job{ID: "job-1", Kind: KindAsk, CreatedAt: at},
			JobRequest{Kind: KindAsk, Site: "gemini", Prompt: "hi", RequestedBy: "c_1"}, "gemini", "ask gemini (the site's default model)"},
		{"the files a job would attach are listed with their sizes",
			job(JobRequest{Kind: KindAsk, Site: "claude", Prompt: "hi", NewChat: true, Files: []string{"/w/a.go", "/w/b.log"}, RequestedBy: "c_1"},
				&JobTarget{Site: "claude", Where: "a new chat", Files: []Attachment{{Name: "a.go", Bytes: 300}, {Name: "b.log", Bytes: 3 << 20}}}),
			JobRequest{}, "claude", "ask claude (the site's default model) in a new chat, with 2 files: a.go (300 B), b.log (3.0 MiB)"},
		{"a site that could not be resolved is said so",
			job(JobRequest{Kind: KindAsk, TabID: "T9", Prompt: "hi", RequestedBy: "c_1"}, &JobTarget{Where: "tab T9, which is not open", Existing: true}),
			JobRequest{}, "", "ask an unresolved site (the site's default model) in tab T9, which is not open"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ap := ApprovalOf(tc.job, tc.asked, "agent")
			if ap.Site != tc.site || ap.JobID != "job-1" || ap.ClientID != "c_1" || ap.ClientName != "agent" || ap.Summary != "hi" && ap.Summary != "zip" || !ap.RequestedAt.Equal(at) {
				t.Fatalf("approval %+v", ap)
			}
			if got := ap.Describe(); got != tc.describe {
				t.Fatalf("described %q, want %q", got, tc.describe)
			}
		})
	}
}
