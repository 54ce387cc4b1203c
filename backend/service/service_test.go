package service

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

type validator interface{ Validate() error }

func TestValidateRefusesWhatNoImplementationCouldRun(t *testing.T) {
	ok := JobRequest{Kind: KindAsk, Site: "chatgpt", Prompt: "hi"}
	with := func(f func(*JobRequest)) JobRequest { r := ok; f(&r); return r }
	cases := []struct {
		name string
		req  validator
		hint string // a word the hint must name; "" when the request is valid
	}{
		{"an ask with a site and a prompt is valid", ok, ""},
		{"a template stands in for the prompt", with(func(r *JobRequest) { r.Prompt, r.Template = "", "review" }), ""},
		{"an unknown kind is refused", with(func(r *JobRequest) { r.Kind = "chat" }), "kind"},
		{"an empty kind is refused", with(func(r *JobRequest) { r.Kind = "" }), "kind"},
		{"a blank prompt is refused", with(func(r *JobRequest) { r.Prompt = "  " }), "prompt"},
		{"an ask with no site and no tab is refused", with(func(r *JobRequest) { r.Site = "" }), "site"},
		{"a code job may name no site", JobRequest{Kind: KindCode, Prompt: "x"}, ""},
		{"a new chat with a tab is refused", with(func(r *JobRequest) { r.NewChat, r.TabID = true, "T1" }), "tabId"},
		{"a negative timeout is refused", with(func(r *JobRequest) { r.TimeoutSeconds = -1 }), "timeoutSeconds"},
		{"a cooldown over an hour is refused", with(func(r *JobRequest) { r.CooldownSeconds = 7200 }), "cooldownSeconds"},
		{"files are absolute paths", with(func(r *JobRequest) { r.Files = []string{"notes.txt"} }), "absolute"},
		{"a file named twice is refused", with(func(r *JobRequest) { r.Files = []string{"/w/a.go", "/w/./a.go"} }), "once"},
		{"absolute files are valid on an ask", with(func(r *JobRequest) { r.Files = []string{"/w/a.go", "/w/b.go"} }), ""},
		{"inlining needs files", with(func(r *JobRequest) { r.InlineFiles = true }), "files"},
		{"a reattach takes no files", JobRequest{Kind: KindReattach, SessionID: "abc", Files: []string{"/w/a.go"}}, "files"},
		{"a reattach needs its run", JobRequest{Kind: KindReattach}, "sessionId"},
		{"a reattach with its run is valid", JobRequest{Kind: KindReattach, SessionID: "abc"}, ""},
		{"attaching needs an address", with(func(r *JobRequest) { r.Browser = &BrowserSpec{Mode: BrowserAttach} }), "url"},
		{"launching takes no address", with(func(r *JobRequest) { r.Browser = &BrowserSpec{Mode: BrowserLaunch, URL: "ws://127.0.0.1:1"} }), "attach"},
		{"an unknown browser mode is refused", with(func(r *JobRequest) { r.Browser = &BrowserSpec{Mode: "borrow"} }), "launch"},
		{"a job reference needs an id", JobRef{}, "job"},
		{"a search needs words", SearchRequest{Query: " "}, "q"},
		{"a listing limit is bounded", SessionQuery{Limit: MaxListLimit + 1}, "limit"},
		{"a session reference needs an id", SessionRef{}, "ferry sessions list"},
		{"an export needs a known format", ExportRequest{ID: "abc", Format: "pdf"}, "md"},
		{"a poll in a remote browser is refused", PollRequest{BrowserURL: "ws://10.0.0.2:9222/devtools/browser/x"}, "127.0.0.1"},
		{"a poll in a loopback browser is valid", PollRequest{BrowserURL: "ws://127.0.0.1:9222/devtools/browser/x"}, ""},
		{"a DevToolsActivePort path is valid", DoctorRequest{BrowserURL: "/home/u/profile"}, ""},
		{"a reattach timeout may not be negative", ReattachRequest{TimeoutMs: -5}, "default"},
		{"opening a tab needs a site", OpenTabRequest{}, "site"},
		{"the tabs of the implementation's browser need nothing", ListTabsRequest{}, ""},
		{"the tabs of Ferry's own browser are valid", ListTabsRequest{Browser: &BrowserSpec{Mode: BrowserOwn}}, ""},
		{"Ferry's own browser takes no address", ListTabsRequest{Browser: &BrowserSpec{Mode: BrowserOwn, URL: "ws://127.0.0.1:1"}}, "attach"},
		{"the tabs of a remote browser are refused", ListTabsRequest{Browser: &BrowserSpec{Mode: BrowserAttach, URL: "ws://10.0.0.2:9222/devtools/browser/x"}}, "127.0.0.1"},
		{"a template reference needs a name", TemplateRef{}, "templates list"},
		{"a rejection names its job", RejectRequest{Reason: "no"}, "job"},
		{"a client reference needs an id", AutoApproveRequest{AutoApprove: true}, "clients list"},
		{"an ask's sources go as a zip", with(func(r *JobRequest) { r.RepoRoot, r.SourcePaths, r.SourceAs = "/w", []string{"src"}, SourceAsZip }), ""},
		{"an ask's sources go only as a zip", with(func(r *JobRequest) { r.RepoRoot, r.SourcePaths = "/w", []string{"src"} }), "zip"},
		{"a code job's sources may name the pushed commit", JobRequest{Kind: KindCode, Prompt: "x", RepoRoot: "/w", SourcePaths: []string{"src"}}, ""},
		{"sources need their repository", JobRequest{Kind: KindCode, Prompt: "x", SourcePaths: []string{"src"}}, "--repo"},
		{"sourceAs needs sources", with(func(r *JobRequest) { r.SourceAs = SourceAsZip }), "--source"},
		{"sourceAs takes zip or provenance", JobRequest{Kind: KindCode, Prompt: "x", RepoRoot: "/w", SourcePaths: []string{"src"}, SourceAs: "tarball"}, "zip"},
		{"the sources' zip is not inlined", with(func(r *JobRequest) {
			r.RepoRoot, r.SourcePaths, r.SourceAs, r.Files, r.InlineFiles = "/w", []string{"src"}, SourceAsZip, []string{"/w/a.txt"}, true
		}), "inline"},
		{"allowed folders are absolute", FileRootsRequest{ID: "c_1", Roots: []string{"logs"}}, "absolute"},
		{"allowed folders name their client", FileRootsRequest{Roots: []string{"/logs"}}, "clients list"},
		{"no allowed folder is valid", FileRootsRequest{ID: "c_1"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.req.Validate()
			if tc.hint == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if !errs.Has(err, errs.BadInput) {
				t.Fatalf("Validate = %v, want bad_input", err)
			}
			if h := errs.From(err).RetryHint; !strings.Contains(h, tc.hint) {
				t.Fatalf("hint %q does not name %q", h, tc.hint)
			}
		})
	}
}

func TestCallerNamesTheRequesterJobsRecord(t *testing.T) {
	cases := []struct {
		c         Caller
		owner     bool
		requester string
	}{
		{Owner(FaceDesktop), true, DesktopRequester},
		{Owner(FaceCLI), true, OwnerRequester},
		{Owner(FaceGateway), true, OwnerRequester},
		{Owner(FaceMCP), true, OwnerRequester},
		{Agent("c-123"), false, "c-123"},
		{Caller{}, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.c.String(), func(t *testing.T) {
			if tc.c.IsOwner() != tc.owner {
				t.Fatalf("IsOwner = %v", !tc.owner)
			}
			if got := tc.c.Requester(); got != tc.requester {
				t.Fatalf("Requester = %q, want %q", got, tc.requester)
			}
			if tc.requester != "" && CallerOf(tc.requester).IsOwner() != tc.owner {
				t.Fatalf("CallerOf(%q) changes who is the owner", tc.requester)
			}
		})
	}
}

func TestAJobCarriesItsDetailTyped(t *testing.T) {
	in := `{"id":"job-1","kind":"ask","state":"done","createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z",
		"detail":{"session":"s1","approval":"not_required","spec":{"kind":"ask","prompt":"hi","site":"chatgpt"},"ended":true,
		"run":{"id":"s1","site":"chatgpt","model":{"requested":"","verified":false},"prompt":"hi","created":"2026-01-01T00:00:00Z",
		"updated":"2026-01-01T00:00:00Z","state":"done","answer":"hello","origin":"cli","approval":"not_required","seq":9}}}`
	var j Job
	dec := json.NewDecoder(strings.NewReader(in))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		t.Fatal(err)
	}
	if !j.Ended() || j.Detail.Run == nil || j.Detail.Run.Answer != "hello" || j.Detail.Spec.Site != "chatgpt" {
		t.Fatalf("decoded %+v", j.Detail)
	}
}

func TestVersionMismatchNamesBothVersionsAndTheOlderProcess(t *testing.T) {
	owner := Peer{Version: "1.4.0", Wire: 3}
	cases := []struct {
		name   string
		client Peer
		words  []string
	}{
		{"a newer client restarts the owner", Peer{Version: "1.5.0", Wire: 4}, []string{"1.4.0", "1.5.0", "the running owner is the older", "restart the Ferry app"}},
		{"an older client restarts itself", Peer{Version: "1.3.0", Wire: 2}, []string{"1.4.0", "1.3.0", "the client is the older", "Ferry 1.4.0"}},
		{"a client from before the handshake is the older", Peer{}, []string{"1.4.0", "before the handshake", "the client is the older"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := VersionMismatch(owner, tc.client)
			if e.Code != errs.VersionMismatch {
				t.Fatalf("code %s", e.Code)
			}
			all := e.Message + " | " + e.RetryHint
			for _, w := range tc.words {
				if !strings.Contains(all, w) {
					t.Errorf("%q does not say %q", all, w)
				}
			}
		})
	}
}
