package sim_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simtest"
)

func TestChatGPTRateLimitModalSwallowsClicksAndLocksConversationLoads(t *testing.T) {
	env, p := openChatGPT(t)
	chatgptAsk(t, p, "hi\n"+sim.Directive("rate_limit", "lock", "4s"))
	waitText(t, p, `[role="dialog"]`, 5*time.Second, contains("Too many requests"))
	// The backdrop covers the composer: a trusted click there lands on it.
	hit := p.MustEval(`() => { const r = document.querySelector('#prompt-textarea').getBoundingClientRect();
		return document.elementFromPoint(r.x + r.width/2, r.y + r.height/2).className }`).Str()
	if !strings.Contains(hit, "fixed inset-0 z-50") {
		t.Fatalf("element under the composer is %q, want the fixed inset-0 z-50 backdrop", hit)
	}
	subs := env.Server.Submissions(sim.ChatGPT)
	if len(subs) != 1 || !subs[0].Refused {
		t.Fatalf("submissions = %+v, want one refused", subs)
	}
	a := &gptAPI{t: t, srv: env.Server, client: env.Server.Client(), token: env.Server.AccessToken(), cookie: env.Server.SessionCookie(sim.ChatGPT)}
	if _, code := a.conversation(subs[0].ConversationID); code != 429 {
		t.Fatalf("conversation load during the lock: %d, want 429", code)
	}
	clickTrusted(t, p, `[role="dialog"] button`)
	if exists(p, `[role="dialog"]`) {
		t.Fatal("dialog still open after Got it")
	}
	waitText(t, p, `[role="dialog"]`, 5*time.Second, contains("Too many requests"))
}

func TestChatGPTTurnScenariosShowTheirInterstitials(t *testing.T) {
	for _, tc := range []struct {
		name, directive, sel, want string
		sends                      int
	}{
		{"conversation too long offers Start new chat", sim.Directive("conversation_too_long"), `[data-conversation-role="assistant"] .text-token-text-error`, "maximum length for this conversation", 1},
		{"a usage cap shows the reset time", sim.Directive("usage_cap", "reset", "90m"), `[role="alert"] time[datetime]`, "M", 1},
		{"an error shows Something went wrong with regenerate", sim.Directive("error"), `.text-token-text-error`, "Something went wrong", 1},
		{"a cut stream shows a network error and no action bar", sim.Directive("stream_cut", "chunk", "30"), `.text-token-text-error`, "network error", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, p := openChatGPT(t)
			chatgptAsk(t, p, "hi\n"+tc.directive)
			waitText(t, p, tc.sel, 5*time.Second, contains(tc.want))
			if exists(p, gptDone) {
				t.Error("finished-action bar present on a failed turn")
			}
			if n := env.Server.SubmissionCount(sim.ChatGPT); n != tc.sends {
				t.Errorf("submissions = %d, want %d", n, tc.sends)
			}
			switch {
			case strings.Contains(tc.name, "Start new chat"):
				waitText(t, p, `[data-conversation-role="assistant"] button`, time.Second, contains("Start new chat"))
			case strings.Contains(tc.name, "regenerate"):
				clickTrusted(t, p, `[data-testid="regenerate-thread-error-button"]`)
				deadline := time.Now().Add(5 * time.Second)
				for time.Now().Before(deadline) && env.Server.SubmissionCount(sim.ChatGPT) < 2 {
					time.Sleep(20 * time.Millisecond)
				}
				waitText(t, p, `.text-token-text-error`, 5*time.Second, contains("Something went wrong"))
				if n := env.Server.SubmissionCount(sim.ChatGPT); n != 2 {
					t.Errorf("regenerate: submissions = %d, want 2", n)
				}
			}
		})
	}
}

func TestChatGPTCodeModeRendersSandboxButtonsThatFetchInPage(t *testing.T) {
	_, p := openChatGPT(t)
	chatgptAsk(t, p, "Build\n"+sim.Directive("code_zip"))
	waitExists(t, p, gptDone, 10*time.Second)
	if exists(p, `[data-conversation-role="assistant"] a[href^="sandbox:"], a[download]`) {
		t.Fatal("sandbox link rendered as an anchor; the site renders button.behavior-btn")
	}
	waitExists(t, p, `button.behavior-btn`, time.Second)
	cap := captureStream(t, p, "/backend-api/estuary/content")
	clickTrusted(t, p, `button.behavior-btn`)
	body := cap.bytes(t)
	want, _ := sim.ZipBytes(sim.ScenarioCodeZip, 0, 1)
	if cap.status != 200 || string(body) != string(want) {
		t.Fatalf("estuary in page: status %d, %d bytes (want %d)", cap.status, len(body), len(want))
	}
}

// withPageScenario sets a page scenario for the test and clears it after.
func withPageScenario(t *testing.T, site, name string, params map[string]string) *simtest.Env {
	env := simtest.Shared(t)
	env.Server.Reset()
	env.Server.SetScenario(site, sim.Scenario{Name: name, Params: params})
	t.Cleanup(env.Server.Reset)
	return env
}

func TestChatGPTPageScenarios(t *testing.T) {
	t.Run("a Cloudflare challenge replaces the app until solved", func(t *testing.T) {
		env := withPageScenario(t, sim.ChatGPT, sim.ScenarioCloudflare, nil)
		p := env.Page(t, sim.URL(sim.ChatGPT, "/"), 20*time.Second)
		if title := p.MustInfo().Title; title != "Just a moment..." {
			t.Fatalf("title %q", title)
		}
		if !exists(p, `#challenge-form`) || !exists(p, `iframe[src*="/cdn-cgi/challenge-platform/"]`) || exists(p, `#prompt-textarea`) {
			t.Fatal("challenge page lacks its markers or shows a composer")
		}
		req, _ := http.NewRequest("GET", sim.URL(sim.ChatGPT, "/backend-api/conversation/x"), nil)
		resp, err := env.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 403 || resp.Header.Get("cf-mitigated") != "challenge" {
			t.Fatalf("backend-api under challenge: %d cf-mitigated=%q", resp.StatusCode, resp.Header.Get("cf-mitigated"))
		}
		frame := p.MustElement(`iframe`).MustFrame()
		frame.MustElement(`#cf-verify`).MustClick()
		waitExists(t, p, gptComposer, 10*time.Second)
	})
	t.Run("a normal page carries the challenge script but no challenge", func(t *testing.T) {
		_, p := openChatGPT(t)
		if !exists(p, `script[src*="/challenge-platform/"]`) || exists(p, `#challenge-form`) {
			t.Fatal("want the weak-evidence script and no challenge form")
		}
	})
	t.Run("logged out shows login links and answers anonymously with a weaker model", func(t *testing.T) {
		env := withPageScenario(t, sim.ChatGPT, sim.ScenarioLoggedOut, nil)
		p := env.Page(t, sim.URL(sim.ChatGPT, "/"), 20*time.Second)
		waitExists(t, p, `textarea#mobile-composer-prompt`, 5*time.Second)
		if !exists(p, `a[href*="/auth/login"]`) || exists(p, `[data-testid="accounts-profile-button"]`) {
			t.Fatal("logged-out markers wrong")
		}
		typeNaive(t, p, `#mobile-composer-prompt`, "naive")
		p.MustEval(`() => document.querySelector('#mobile-composer-prompt').dispatchEvent(new Event('input', {bubbles: true}))`)
		time.Sleep(200 * time.Millisecond)
		if exists(p, gptSend) {
			t.Fatal("a .value write plus input event was noticed; React's value tracker drops it")
		}
		typeNativeSetter(t, p, `#mobile-composer-prompt`, "anonymous question")
		waitExists(t, p, gptSend, 2*time.Second)
		cap := captureStream(t, p, "/backend-anon/f/conversation")
		clickTrusted(t, p, gptSend)
		waitExists(t, p, gptDone, 10*time.Second)
		if dec, err := refDecode(cap.bytes(t)); err != nil || dec.ModelSlug != "gpt-5-mini" {
			t.Errorf("model slug %q (%v), want gpt-5-mini", dec.ModelSlug, err)
		}
		if subs := env.Server.Submissions(sim.ChatGPT); len(subs) != 1 || subs[0].Prompt != "anonymous question" {
			t.Fatalf("submissions %+v", subs)
		}
	})
	t.Run("an expired session shows the login-again dialog", func(t *testing.T) {
		env := withPageScenario(t, sim.ChatGPT, sim.ScenarioSessionExpired, nil)
		p := env.Page(t, sim.URL(sim.ChatGPT, "/"), 20*time.Second)
		waitText(t, p, `[role="dialog"]`, 5*time.Second, contains("Your session has expired. Please log in again"))
	})
	t.Run("slow hydration wipes text typed before it", func(t *testing.T) {
		env := withPageScenario(t, sim.ChatGPT, sim.ScenarioSlowHydration, map[string]string{"hydrate": "1200ms"})
		p := env.Page(t, sim.URL(sim.ChatGPT, "/"), 20*time.Second)
		typeInsertText(t, p, "#prompt-textarea", "too early")
		time.Sleep(1500 * time.Millisecond)
		if txt := p.MustEval(`() => document.querySelector('#prompt-textarea').innerText.trim()`).Str(); txt != "" || exists(p, gptSend) {
			t.Fatalf("after hydration composer=%q send=%v, want empty and no send", txt, exists(p, gptSend))
		}
		chatgptAsk(t, p, "in time")
		waitExists(t, p, gptDone, 10*time.Second)
		if n := env.Server.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Fatalf("submissions = %d", n)
		}
	})
	t.Run("a drifted DOM breaks the reference selectors and works with the overrides", func(t *testing.T) {
		env := withPageScenario(t, sim.ChatGPT, sim.ScenarioDriftedDOM, nil)
		p := env.Page(t, sim.URL(sim.ChatGPT, "/"), 20*time.Second)
		d := sim.Drift[sim.ChatGPT]
		waitExists(t, p, d["composer"], 5*time.Second)
		if exists(p, `#prompt-textarea`) || exists(p, `.ProseMirror`) {
			t.Fatal("reference composer selectors still match")
		}
		typeInsertText(t, p, d["composer"], "drifted")
		waitExists(t, p, d["send"], 2*time.Second)
		if exists(p, gptSend) {
			t.Fatal("reference send selector still matches")
		}
		clickTrusted(t, p, d["send"])
		waitExists(t, p, d["copy"], 10*time.Second)
		waitText(t, p, d["answer"], time.Second, contains("That is the whole answer."))
		if n := env.Server.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Fatalf("submissions = %d", n)
		}
	})
}

func TestAdminEndpointsSelectScenariosAndCountSubmissions(t *testing.T) {
	env := simtest.Shared(t)
	env.Server.Reset()
	t.Cleanup(env.Server.Reset)
	c := env.Server.Client()
	resp, err := c.Post(sim.URL(sim.Grok, "/__sim/scenario"), "application/json", strings.NewReader(`{"site":"chatgpt","scenario":"usage_cap"}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("set scenario: %v %v", err, resp)
	}
	resp.Body.Close()
	resp, _ = c.Post(sim.URL(sim.Grok, "/__sim/scenario"), "application/json", strings.NewReader(`{"site":"chatgpt","scenario":"nope"}`))
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), "unknown scenario \"nope\"") {
		t.Fatalf("bad scenario: %d %s", resp.StatusCode, b)
	}
	a := &gptAPI{t: t, srv: env.Server, client: c, token: env.Server.AccessToken(), cookie: env.Server.SessionCookie(sim.ChatGPT)}
	if _, r, _ := a.ask("no directive here", ""); r.StatusCode != 429 {
		t.Fatalf("sticky usage_cap: %d, want 429", r.StatusCode)
	}
	// A conversation scenario applies to that conversation only.
	resp, _ = c.Post(sim.URL(sim.Kimi, "/__sim/scenario"), "application/json", strings.NewReader(`{"site":"chatgpt","scenario":"normal"}`))
	resp.Body.Close()
	first, _, _ := a.ask("start", "")
	resp, _ = c.Post(sim.URL(sim.Kimi, "/__sim/scenario"), "application/json", strings.NewReader(`{"site":"chatgpt","conversation":"`+first.ConversationID+`","scenario":"conversation_too_long"}`))
	resp.Body.Close()
	if d, _, _ := a.ask("again", first.ConversationID); d.ErrorCode != "conversation_too_large" {
		t.Fatalf("conversation scenario not applied: %+v", d)
	}
	if d, _, _ := a.ask("elsewhere", ""); !d.Complete {
		t.Fatalf("conversation scenario leaked to a new conversation: %+v", d)
	}
	resp, _ = c.Get(sim.URL(sim.Claude, "/__sim/submissions?site=chatgpt&conversation="+first.ConversationID))
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"count":2`) {
		t.Fatalf("per-conversation submissions: %s", b)
	}
	resp, _ = c.Get(sim.URL(sim.Claude, "/__sim/submissions?site=chatgpt"))
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"count":4`) || !strings.Contains(string(b), `"refused":true`) {
		t.Fatalf("submissions endpoint: %s", b)
	}
	resp, _ = c.Get(sim.URL(sim.ChatGPT, "/__sim/"))
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"[[sim:scenario=code_zip zip_size=5MiB]]", "zip_bomb", "MAP chatgpt.com 127.0.0.1:"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("index lacks %q", want)
		}
	}
}
