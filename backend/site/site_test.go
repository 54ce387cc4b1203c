package site

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream"
)

func TestTheBuiltinRegistryHasTheSevenSitesInOrder(t *testing.T) {
	want := []string{"aistudio", "chatgpt", "claude", "deepseek", "gemini", "grok", "kimi"}
	if got := Builtin().IDs(); !reflect.DeepEqual(got, want) {
		t.Fatalf("ids = %v, want %v", got, want)
	}
	for _, s := range Builtin().Sites() {
		t.Run(s.ID+" is complete and consistent", func(t *testing.T) {
			if err := validate(s); err != nil {
				t.Fatal(err)
			}
			for _, r := range RequiredRoles() {
				if len(s.Selector(r)) == 0 {
					t.Errorf("no selector for %s", r)
				}
			}
			if !s.Builtin || s.Name == "" {
				t.Errorf("builtin=%v name=%q", s.Builtin, s.Name)
			}
			if s.NewChat != "" && !s.Allows(s.NewChat) {
				t.Errorf("new chat URL %q is outside the site", s.NewChat)
			}
			if s.TemporaryChat != "" && !s.Allows(s.TemporaryChat) {
				t.Errorf("temporary chat URL %q is outside the site", s.TemporaryChat)
			}
			if s.Has(FeatureStreamCapture) {
				if _, err := stream.New(s.Stream.Decoder); err != nil {
					t.Errorf("decoder: %v", err)
				}
			}
			if s.Has(FeatureCodeArtifacts) != (s.ID == "chatgpt") {
				t.Errorf("code artifacts must be ChatGPT's alone")
			}
		})
	}
}

func TestRegisteringADuplicateIDPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "duplicate") {
			t.Fatalf("recover() = %v, want a duplicate-id panic", r)
		}
	}()
	Register(builtins["chatgpt"])
}

func TestRegisteringAnIncompleteBuiltinPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("an incomplete built-in must panic")
		}
	}()
	Register(Site{ID: "half", Name: "Half", Address: "https://half.example/"})
}

func TestGetReturnsCopiesAndNamesKnownSitesWhenUnknown(t *testing.T) {
	r := Builtin()
	s, err := r.Get("ChatGPT")
	if err != nil {
		t.Fatal(err)
	}
	s.Selectors[RoleComposer][0] = "#hacked"
	s.Models[0].Alias = "hacked"
	again, _ := r.Get("chatgpt")
	if again.Selectors[RoleComposer][0] == "#hacked" || again.Models[0].Alias == "hacked" {
		t.Fatal("changing a returned site changed the registry")
	}
	_, err = r.Get("bard")
	if !errs.Has(err, errs.UnknownSite) || !strings.Contains(errs.From(err).Evidence["known_sites"], "gemini") {
		t.Fatalf("err = %v", err)
	}
}

func TestAllowsAcceptsOnlyTheExactOriginAndPathPrefix(t *testing.T) {
	chatgpt, _ := Builtin().Get("chatgpt")
	custom := Site{ID: "intranet", Address: "https://llm.example.com/chat/"}
	cases := []struct {
		name string
		site Site
		url  string
		want bool
	}{
		{"a conversation URL is inside", chatgpt, "https://chatgpt.com/c/6974e0a3", true},
		{"the bare origin is inside", chatgpt, "https://chatgpt.com", true},
		{"an upper-case host and the default port are the same origin", chatgpt, "https://CHATGPT.com:443/?model=x", true},
		{"plain http is refused", chatgpt, "http://chatgpt.com/", false},
		{"a look-alike host with the name as a subdomain is refused", chatgpt, "https://chatgpt.com.evil.io/", false},
		{"a host that merely ends with the name is refused", chatgpt, "https://evilchatgpt.com/", false},
		{"a subdomain is refused", chatgpt, "https://auth.chatgpt.com/", false},
		{"userinfo that looks like the host is refused", chatgpt, "https://chatgpt.com@evil.io/", false},
		{"userinfo in front of the right host is refused", chatgpt, "https://evil.io@chatgpt.com/", false},
		{"a backslash trick is refused", chatgpt, `https://chatgpt.com\@evil.io/`, false},
		{"another port is refused", chatgpt, "https://chatgpt.com:8443/", false},
		{"a trailing-dot host is refused", chatgpt, "https://chatgpt.com./", false},
		{"a Cyrillic look-alike host is refused", chatgpt, "https://chаtgpt.com/", false},
		{"a punycode look-alike host is refused", chatgpt, "https://xn--chtgpt-8nf.com/", false},
		{"a javascript URL is refused", chatgpt, "javascript:alert(1)//chatgpt.com", false},
		{"the login provider is outside", chatgpt, "https://auth.openai.com/log-in?state=secret", false},
		{"a path under the prefix is inside", custom, "https://llm.example.com/chat/42", true},
		{"the prefix without its slash is inside", custom, "https://llm.example.com/chat", true},
		{"a sibling path sharing the prefix's letters is outside", custom, "https://llm.example.com/chatter", false},
		{"a path outside the prefix is outside", custom, "https://llm.example.com/admin", false},
		{"dot segments that climb out are refused", custom, "https://llm.example.com/chat/../admin", false},
		{"encoded dot segments are refused", custom, "https://llm.example.com/chat/%2e%2e/admin", false},
		{"an encoded slash is refused", custom, "https://llm.example.com/chat%2f..%2fadmin", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.site.Allows(c.url); got != c.want {
				t.Fatalf("Allows(%q) = %v, want %v", c.url, got, c.want)
			}
		})
	}
}

func TestTheSiteIsInferredFromTheTabsLiveURL(t *testing.T) {
	r, err := Builtin().Merge(completeCustom("corpchat", "https://chatgpt.com/g/corp/"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, url, want string }{
		{"a ChatGPT conversation is chatgpt", "https://chatgpt.com/c/123", "chatgpt"},
		{"Kimi lives on www", "https://www.kimi.com/chat/abc", "kimi"},
		{"Kimi's old host is Kimi", "https://kimi.moonshot.cn/chat/abc", "kimi"},
		{"a look-alike of Kimi's old host is no site", "https://kimi.moonshot.cn.evil.io/chat/abc", ""},
		{"AI Studio is not Gemini", "https://aistudio.google.com/prompts/new_chat", "aistudio"},
		{"the longest path prefix wins", "https://chatgpt.com/g/corp/c/1", "corpchat"},
		{"a login provider is no site", "https://accounts.google.com/signin", ""},
		{"a look-alike is no site", "https://grok.com.evil.io/", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, ok := r.ForURL(c.url)
			if c.want == "" {
				if ok {
					t.Fatalf("inferred %q for %q", s.ID, c.url)
				}
				return
			}
			if !ok || s.ID != c.want {
				t.Fatalf("ForURL(%q) = %q, %v; want %q", c.url, s.ID, ok, c.want)
			}
		})
	}
	if s, ok := r.ForHost("chat.deepseek.com"); !ok || s.ID != "deepseek" {
		t.Fatalf("ForHost = %q, %v", s.ID, ok)
	}
	kimi, ok := r.ForHost("kimi.moonshot.cn")
	if !ok || kimi.ID != "kimi" {
		t.Fatalf("ForHost(kimi.moonshot.cn) = %q, %v", kimi.ID, ok)
	}
	for raw, want := range map[string]string{
		"https://kimi.moonshot.cn/chat/abc?x=1": "https://www.kimi.com/chat/abc?x=1",
		"https://KIMI.moonshot.cn/chat/abc":     "https://www.kimi.com/chat/abc",
		"https://www.kimi.com/chat/abc":         "https://www.kimi.com/chat/abc",
		"http://kimi.moonshot.cn/chat/abc":      "http://kimi.moonshot.cn/chat/abc",
		"https://kimi.moonshot.cn:8443/chat/a":  "https://kimi.moonshot.cn:8443/chat/a",
	} {
		if got := kimi.Current(raw); got != want {
			t.Errorf("Current(%q) = %q, want %q", raw, got, want)
		}
	}
	if kimi.Allows("https://kimi.moonshot.cn/chat/abc") {
		t.Error("Kimi drives pages on its old host")
	}
	if s, ok := r.ForHost("chatgpt.com"); !ok || s.ID != "chatgpt" {
		t.Fatalf("ForHost picks the widest site on a shared host, got %q", s.ID)
	}
}

func TestABindingPausesWhenTheTabLeavesAndResumesWhenItReturns(t *testing.T) {
	s, _ := Builtin().Get("chatgpt")
	b, err := Bind(s, "https://chatgpt.com/c/1")
	if err != nil || b.Paused() || b.Check() != nil {
		t.Fatalf("a tab on its site starts active: %v %v", err, b.Check())
	}
	steps := []struct {
		url  string
		want Change
	}{
		{"https://chatgpt.com/c/2", Unchanged},
		{"https://auth.openai.com/log-in?state=s3cr3t#frag", Paused},
		{"https://chatgpt.com.evil.io/", Unchanged},
		{"https://chatgpt.com/", Resumed},
		{"https://chatgpt.com/c/3", Unchanged},
	}
	for _, st := range steps {
		if got := b.Observe(st.url); got != st.want {
			t.Fatalf("Observe(%q) = %s, want %s", st.url, got, st.want)
		}
		if st.url == "https://auth.openai.com/log-in?state=s3cr3t#frag" {
			err := b.Check()
			if !errs.Has(err, errs.NavigatedAway) {
				t.Fatalf("Check = %v", err)
			}
			e := errs.From(err)
			if e.Evidence["url"] != "https://auth.openai.com/log-in" || strings.Contains(string(e.JSON()), "s3cr3t") {
				t.Fatalf("evidence must be redacted: %s", e.JSON())
			}
			if !strings.Contains(e.RetryHint, "logging in") {
				t.Fatalf("a login page deserves a login hint: %q", e.RetryHint)
			}
		}
	}
	b2, _ := Bind(s, "https://example.org/")
	if !b2.Paused() {
		t.Fatal("a tab bound while elsewhere starts paused")
	}
}

func TestABindingIsSafeAcrossGoroutines(t *testing.T) {
	s, _ := Builtin().Get("claude")
	b, _ := Bind(s, "https://claude.ai/new")
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				if (i+j)%2 == 0 {
					b.Observe("https://claude.ai/chat/x")
				} else {
					b.Observe("https://accounts.google.com/")
				}
				_ = b.Check()
				_ = b.Paused()
			}
		}(i)
	}
	wg.Wait()
	b.Observe("https://claude.ai/")
	if b.Paused() {
		t.Fatal("the last navigation was back to the site")
	}
}

func TestLoginPagesAreRecognised(t *testing.T) {
	r := Builtin()
	cases := []struct {
		site, url string
		want      bool
	}{
		{"chatgpt", "https://auth.openai.com/log-in", true},
		{"chatgpt", "https://chatgpt.com/auth/login?next=/", true},
		{"gemini", "https://accounts.google.com/v3/signin", true},
		{"deepseek", "https://chat.deepseek.com/sign_in", true},
		{"deepseek", "https://chat.deepseek.com/a/chat/s/1", false},
		{"chatgpt", "https://auth.openai.com.evil.io/", false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s login page %s is %v", c.site, c.url, c.want), func(t *testing.T) {
			s, _ := r.Get(c.site)
			if got := s.IsLoginURL(c.url); got != c.want {
				t.Fatalf("IsLoginURL = %v", got)
			}
		})
	}
}

func TestAConversationsTransientAddressIsNotItsLastingOne(t *testing.T) {
	plain := Site{Address: "https://chat.example/", NewChat: "https://chat.example/new"}
	shaped := plain
	shaped.ConversationPath = `^/c/[a-z0-9-]+(/|$)`
	cases := []struct {
		name               string
		s                  Site
		url                string
		lasting, transient bool
	}{
		{"the start page is no conversation", shaped, "https://chat.example/", false, false},
		{"the new-chat page is no conversation", shaped, "https://chat.example/new/", false, false},
		{"a matching path lasts", shaped, "https://chat.example/c/6a1f-22?x=1", true, false},
		{"a path the pattern refuses is transient", shaped, "https://chat.example/c/WEB:6a1f", false, true},
		{"an escaped colon is matched escaped, so transient", shaped, "https://chat.example/c/local%3A6a1f", false, true},
		{"without a pattern every other path lasts", plain, "https://chat.example/c/WEB:6a1f", true, false},
		{"an address that does not parse is neither", shaped, "://", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lasting, transient := c.s.Conversation(c.url)
			if lasting != c.lasting || transient != c.transient {
				t.Fatalf("Conversation(%q) = %v, %v; want %v, %v", c.url, lasting, transient, c.lasting, c.transient)
			}
		})
	}
	bad, _ := Builtin().Get("chatgpt")
	bad.ConversationPath = "(("
	if err := validate(bad); err == nil || !strings.Contains(err.Error(), "conversationPath") {
		t.Fatalf("validate accepted a conversationPath that does not compile: %v", err)
	}
	for _, h := range []string{"Kimi.example", "kimi.example:443", "kimi.example/chat", ""} {
		bad, _ := Builtin().Get("kimi")
		bad.OldHosts = []string{h}
		if err := validate(bad); err == nil || !strings.Contains(err.Error(), "oldHosts") {
			t.Errorf("validate accepted the old host %q: %v", h, err)
		}
	}
}

func TestStreamCaptureMatchesOnlyTheAnswerRequest(t *testing.T) {
	r := Builtin()
	cases := []struct {
		site, method, url string
		want              bool
	}{
		{"chatgpt", "POST", "https://chatgpt.com/backend-api/f/conversation", true},
		{"chatgpt", "POST", "https://chatgpt.com/backend-anon/f/conversation", true},
		{"chatgpt", "POST", "https://chatgpt.com/backend-api/f/conversation/prepare", false},
		{"chatgpt", "GET", "https://chatgpt.com/backend-api/f/conversation", false},
		{"chatgpt", "POST", "https://evil.io/backend-api/f/conversation", false},
		{"grok", "POST", "https://grok.com/rest/app-chat/conversations/new", true},
		{"grok", "POST", "https://grok.com/rest/app-chat/conversations/abc/responses", true},
		{"grok", "GET", "https://grok.com/rest/app-chat/conversations", false},
		{"claude", "POST", "https://claude.ai/api/organizations/o1/chat_conversations/c1/completion", true},
		{"deepseek", "POST", "https://chat.deepseek.com/api/v0/chat/completion", true},
		{"kimi", "POST", "https://www.kimi.com/apiv2/kimi.gateway.chat.v1.ChatService/Chat", true},
		{"kimi", "POST", "https://www.kimi.com/apiv2/kimi.chat.v1.ChatService/Chat", true},
		{"kimi", "POST", "https://www.kimi.com/apiv2/kimi.other.v1.ChatService/Chat", false},
		{"aistudio", "POST", "https://aistudio.google.com/anything", false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %s %s is %v", c.site, c.method, c.url, c.want), func(t *testing.T) {
			s, _ := r.Get(c.site)
			if got := s.CaptureMatches(c.method, c.url); got != c.want {
				t.Fatalf("CaptureMatches = %v", got)
			}
		})
	}
}

func completeCustom(id, address string) Override {
	return Override{
		ID: id, Name: "Custom " + id, Address: address,
		Selectors: map[Role][]string{
			RoleComposer: {"textarea#q"}, RoleSend: {"button.send"}, RoleStop: {"button.stop"},
			RoleAssistantTurn: {".turn.bot"}, RoleAnswerBody: {".body"}, RoleFinished: {".actions"},
		},
	}
}

func TestOverridesMergeFieldByField(t *testing.T) {
	base := Builtin()
	ovs, err := ParseOverrides([]byte(`[
		{"id": "chatgpt", "selectors": {"composer": ["#new-composer", "textarea.fallback"]}},
		{"name": "claude", "typing": ["insert_text"], "stream": {"disabled": true}},
		{"id": "deepseek", "stream": {"decoder": "deepseek-sse", "pathPattern": "^/api/v1/chat/completion$"}}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := base.Merge(ovs...)
	if err != nil {
		t.Fatal(err)
	}
	gpt, _ := r.Get("chatgpt")
	orig, _ := base.Get("chatgpt")
	if !reflect.DeepEqual(gpt.Selector(RoleComposer), []string{"#new-composer", "textarea.fallback"}) {
		t.Fatalf("composer = %v", gpt.Selector(RoleComposer))
	}
	if !reflect.DeepEqual(gpt.Selector(RoleSend), orig.Selector(RoleSend)) || gpt.Name != "ChatGPT" {
		t.Fatal("roles and fields not named in the override must stay")
	}
	if orig.Selector(RoleComposer)[0] == "#new-composer" {
		t.Fatal("Merge changed the registry it was called on")
	}
	cl, _ := r.Get("claude")
	if !reflect.DeepEqual(cl.Typing, []Typing{TypingInsertText}) || cl.Stream != nil || cl.Has(FeatureStreamCapture) {
		t.Fatalf("the name-matched override did not apply: %+v", cl)
	}
	ds, _ := r.Get("deepseek")
	if ds.Stream.PathPattern != "^/api/v1/chat/completion$" || ds.Stream.Method != "POST" {
		t.Fatalf("stream fields must merge one by one: %+v", ds.Stream)
	}
}

func TestACustomSiteMustBeComplete(t *testing.T) {
	_, err := Builtin().Merge(Override{ID: "myllm", Address: "https://llm.example.com/",
		Selectors: map[Role][]string{RoleComposer: {"textarea"}, RoleSend: {"button"}}})
	if !errs.Has(err, errs.SiteIncomplete) {
		t.Fatalf("err = %v, want SiteIncomplete", err)
	}
	msg := errs.From(err).Message
	for _, part := range []string{"name", "selectors.stop", "selectors.assistant_turn", "selectors.answer_body", "selectors.finished"} {
		if !strings.Contains(msg, part) {
			t.Errorf("the message does not name %s: %q", part, msg)
		}
	}
	if strings.Contains(msg, "selectors.composer") {
		t.Errorf("the message names a role that was given: %q", msg)
	}

	r, err := Builtin().Merge(completeCustom("myllm", "https://llm.example.com/"))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := r.Get("myllm")
	if s.Builtin || !s.Has(FeatureChat) || s.Has(FeatureFileUpload) || s.Send != SendClick || len(s.Typing) != 4 {
		t.Fatalf("custom site defaults: %+v", s)
	}
	if len(r.IDs()) != 8 {
		t.Fatalf("ids = %v", r.IDs())
	}
}

func TestBadOverridesAreRefusedWithTheReason(t *testing.T) {
	withFile := completeCustom("files", "https://files.example.com/")
	withFile.Features = []Feature{FeatureChat, FeatureCodeArtifacts}
	cases := []struct {
		name string
		raw  string
		ov   *Override
		code errs.Code
		says string
	}{
		{name: "a misspelt field is refused", raw: `[{"id":"chatgpt","selector":{}}]`, code: errs.ConfigInvalid, says: "selector"},
		{name: "a value that is not a list is refused", raw: `{"id":"chatgpt"}`, code: errs.ConfigInvalid, says: "sites"},
		{name: "an unknown role is refused", raw: `[{"id":"chatgpt","selectors":{"composr":["x"]}}]`, code: errs.ConfigInvalid, says: "composr"},
		{name: "emptying a required role is incomplete", raw: `[{"id":"grok","selectors":{"send":[]}}]`, code: errs.SiteIncomplete, says: "selectors.send"},
		{name: "an unknown typing strategy is refused", raw: `[{"id":"kimi","typing":["telepathy"]}]`, code: errs.ConfigInvalid, says: "telepathy"},
		{name: "an unknown decoder is refused", raw: `[{"id":"kimi","stream":{"decoder":"morse"}}]`, code: errs.ConfigInvalid, says: "morse"},
		{name: "a broken path pattern is refused", raw: `[{"id":"kimi","stream":{"pathPattern":"(("}}]`, code: errs.ConfigInvalid, says: "(("},
		{name: "an http address is refused", raw: `[{"id":"chatgpt","address":"http://chatgpt.com/"}]`, code: errs.ConfigInvalid, says: "https"},
		{name: "an address with userinfo is refused", raw: `[{"id":"chatgpt","address":"https://u:p@chatgpt.com/"}]`, code: errs.ConfigInvalid, says: "user name"},
		{name: "a nameless entry matching nothing is refused", raw: `[{"name":"Nobody"}]`, code: errs.ConfigInvalid, says: "Nobody"},
		{name: "a custom site may not take a built-in's name", raw: `[{"id":"fake","name":"ChatGPT"}]`, code: errs.ConfigInvalid, says: "chatgpt"},
		{name: "code artifacts outside ChatGPT are refused", ov: &withFile, code: errs.ConfigInvalid, says: "code_artifacts"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.ov != nil {
				_, err = Builtin().Merge(*c.ov)
			} else {
				var ovs []Override
				ovs, err = ParseOverrides([]byte(c.raw))
				if err == nil {
					_, err = Builtin().Merge(ovs...)
				}
			}
			if !errs.Has(err, c.code) {
				t.Fatalf("err = %v, want %s", err, c.code)
			}
			e := errs.From(err)
			if !strings.Contains(e.Message+" "+e.RetryHint, c.says) {
				t.Fatalf("the error does not say %q: %s / %s", c.says, e.Message, e.RetryHint)
			}
		})
	}
}

func TestRequireFailsClosedBeforeAnythingIsTyped(t *testing.T) {
	custom := completeCustom("plain", "https://plain.example.com/")
	custom.Models = []Model{{Alias: "big"}}
	restricted := Override{ID: "chatgpt", Models: []Model{{Alias: "mini", Features: []Feature{FeatureChat, FeatureModelSelection}}}}
	r, err := Builtin().Merge(custom, restricted)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name           string
		site, model    string
		feature        Feature
		code           errs.Code
		evidenceKey    string
		evidenceSubstr string
	}{
		{"ChatGPT with its default model has code artifacts", "chatgpt", "", FeatureCodeArtifacts, "", "", ""},
		{"ChatGPT with a named model has chat", "chatgpt", "MINI", FeatureChat, "", "", ""},
		{"a model limited to chat lacks code artifacts", "chatgpt", "mini", FeatureCodeArtifacts, errs.CapabilityMissing, "sites_with_feature", "chatgpt"},
		{"Claude has no code artifacts and the error names who has", "claude", "", FeatureCodeArtifacts, errs.CapabilityMissing, "sites_with_feature", "chatgpt"},
		{"Grok cannot upload files", "grok", "", FeatureFileUpload, errs.CapabilityMissing, "feature", "file_upload"},
		{"Gemini takes files, by a drop", "gemini", "pro", FeatureFileUpload, "", "", ""},
		{"an unknown model alias fails and lists the known ones", "claude", "claude-9", FeatureChat, errs.CapabilityMissing, "known_models", "default, haiku, opus, sonnet"},
		{"Kimi has only its default model", "kimi", "k2", FeatureChat, errs.CapabilityMissing, "known_models", "default"},
		{"a site without model selection cannot pick a model", "plain", "big", FeatureChat, errs.CapabilityMissing, "feature", "model_selection"},
		{"an unknown site is UnknownSite", "bard", "", FeatureChat, errs.UnknownSite, "known_sites", "chatgpt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := r.Require(c.site, c.model, c.feature)
			if c.code == "" {
				if err != nil {
					t.Fatalf("Require = %v, want nil", err)
				}
				return
			}
			if !errs.Has(err, c.code) {
				t.Fatalf("Require = %v, want %s", err, c.code)
			}
			if got := errs.From(err).Evidence[c.evidenceKey]; !strings.Contains(got, c.evidenceSubstr) {
				t.Fatalf("evidence %s = %q, want it to contain %q", c.evidenceKey, got, c.evidenceSubstr)
			}
		})
	}
	feats, err := r.Features("chatgpt", "mini")
	if err != nil || !reflect.DeepEqual(feats, []Feature{FeatureChat, FeatureModelSelection}) {
		t.Fatalf("Features = %v, %v", feats, err)
	}
}

func TestTheRegistryListsEverySitesToolsOnceSorted(t *testing.T) {
	if got, want := Builtin().ToolNames(), []string{"deep-research", "image", "web-search"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("tools = %v, want %v", got, want)
	}
}
