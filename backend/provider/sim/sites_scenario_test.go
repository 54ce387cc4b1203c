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

// errorTexts are the words each site shows for the error scenario.
var errorTexts = map[string]string{
	sim.Gemini: "Sorry, something went wrong", sim.AIStudio: "An internal error has occurred", sim.Grok: "heavy usage",
	sim.Claude: "overloaded", sim.Kimi: "Service is busy", sim.DeepSeek: "The server is busy. Please try again later.",
}

func TestEachSiteTurnScenariosAreObservable(t *testing.T) {
	for _, ui := range siteUIs {
		t.Run(ui.site+" shows thinking, code, errors, cuts and limits", func(t *testing.T) {
			env, p := openSite(t, ui)
			text := func() string { return p.MustEval(`() => document.body.innerText`).Str() }
			waitBody := func(want string) {
				t.Helper()
				deadline := time.Now().Add(8 * time.Second)
				for time.Now().Before(deadline) {
					if strings.Contains(text(), want) {
						return
					}
					time.Sleep(25 * time.Millisecond)
				}
				t.Fatalf("page never showed %q; it shows %.400q", want, text())
			}
			count := func(n int) {
				t.Helper()
				deadline := time.Now().Add(5 * time.Second)
				for time.Now().Before(deadline) && env.Server.SubmissionCount(ui.site) < n {
					time.Sleep(20 * time.Millisecond)
				}
				if got := env.Server.SubmissionCount(ui.site); got != n {
					t.Fatalf("submissions = %d, want %d", got, n)
				}
			}
			idle := func() {
				t.Helper()
				waitExists(t, p, ui.composer, 2*time.Second)
				time.Sleep(40 * time.Millisecond)
			}

			askSite(t, p, ui, "think\n"+sim.Directive("thinking"))
			waitBody("Thinking text never belongs in the answer.")
			count(1)
			if ans := waitText(t, p, ui.answer, 2*time.Second, contains("answer is 42")); strings.Contains(ans, "Considering") {
				t.Errorf("thoughts leaked into the answer: %q", ans)
			}
			idle()

			askSite(t, p, ui, "code\n"+sim.Directive("inline_code"))
			waitBody("No files were written.")
			if code := p.MustEval(`() => [...document.querySelectorAll('pre')].map(x => x.innerText).join('\n')`).Str(); !strings.Contains(code, `return f"Hello, {name}!"`) {
				t.Errorf("code block text %q", code)
			}
			count(2)
			idle()

			askSite(t, p, ui, "err\n"+sim.Directive("error"))
			waitBody(errorTexts[ui.site])
			count(3)
			idle()

			askSite(t, p, ui, "cut\n"+sim.Directive("stream_cut", "chunk", "40"))
			if ui.site == sim.Gemini {
				waitBody("Sorry, something went wrong")
			} else {
				waitBody("Network error")
			}
			count(4)
			idle()

			askSite(t, p, ui, "cap\n"+sim.Directive("usage_cap"))
			waitExists(t, p, `time[datetime]`, 5*time.Second)
			count(5)
			if ui.site == sim.Claude {
				// Claude blocks its composer at the cap: the simulator
				// keeps a refused turn's cap in the page until a reload.
				if err := p.Reload(); err != nil {
					t.Fatal(err)
				}
			}
			idle()

			askSite(t, p, ui, "limit\n"+sim.Directive("rate_limit", "lock", "2s"))
			waitExists(t, p, `[role="alert"]`, 5*time.Second)
			count(6)
			subs := env.Server.Submissions(ui.site)
			if !subs[4].Refused || !subs[5].Refused || subs[0].Refused {
				t.Errorf("refused flags wrong: %+v", subs)
			}
		})
	}
}

func TestEachSiteDriftedDOMBreaksTheReferenceSelectorsAndOverridesWork(t *testing.T) {
	for _, ui := range siteUIs {
		t.Run(ui.site+" renders changed selectors that the Drift overrides match", func(t *testing.T) {
			env := withPageScenario(t, ui.site, sim.ScenarioDriftedDOM, nil)
			p := env.Page(t, sim.URL(ui.site, ui.path), 20*time.Second)
			d := sim.Drift[ui.site]
			waitExists(t, p, d["composer"], 5*time.Second)
			if exists(p, ui.composer) {
				t.Fatalf("reference composer %s still matches", ui.composer)
			}
			ui.typer(t, p, d["composer"], "drifted prompt")
			waitExists(t, p, d["send"], 3*time.Second)
			if ui.site != sim.Gemini && exists(p, ui.send) {
				t.Fatalf("reference send %s still matches", ui.send)
			}
			clickTrusted(t, p, d["send"])
			deadline := time.Now().Add(5 * time.Second)
			for time.Now().Before(deadline) && env.Server.SubmissionCount(ui.site) == 0 {
				time.Sleep(20 * time.Millisecond)
			}
			if subs := env.Server.Submissions(ui.site); len(subs) != 1 || subs[0].Prompt != "drifted prompt" {
				t.Fatalf("submissions %+v", subs)
			}
		})
	}
}

func TestLoggedOutSitesAnswerLikeTheRealOnes(t *testing.T) {
	env := withPageScenario(t, "", sim.ScenarioLoggedOut, nil)
	c := env.Server.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for _, tc := range []struct {
		name, url string
		status    int
		want      string
	}{
		{"grok's user-settings probe answers 401", sim.URL(sim.Grok, "/rest/user-settings"), 401, "Not authenticated"},
		{"deepseek redirects to /sign_in", sim.URL(sim.DeepSeek, "/"), 302, ""},
		{"claude's organizations answer 403", sim.URL(sim.Claude, "/api/organizations"), 403, "permission_error"},
		{"chatgpt's session has no user", sim.URL(sim.ChatGPT, "/api/auth/session"), 200, "{}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := c.Get(tc.url)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.want) {
				t.Fatalf("%d %s", resp.StatusCode, b)
			}
		})
	}
	t.Run("gemini shows Sign in instead of the account", func(t *testing.T) {
		p := env.Page(t, sim.URL(sim.Gemini, "/app"), 20*time.Second)
		waitExists(t, p, `a[href*="accounts.google.com"]`, 5*time.Second)
		if exists(p, `a[aria-label*="Google Account" i]`) {
			t.Fatal("account marker present while logged out")
		}
	})
}

func TestCloudflareChallengeGatesEverySite(t *testing.T) {
	env := withPageScenario(t, "", sim.ScenarioCloudflare, nil)
	c := env.Server.Client()
	for _, id := range sim.Sites() {
		resp, err := c.Get(sim.URL(id, "/"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 403 || resp.Header.Get("cf-mitigated") != "challenge" || !strings.Contains(string(b), "Just a moment...") {
			t.Errorf("%s: %d %q", id, resp.StatusCode, resp.Header.Get("cf-mitigated"))
		}
	}
}

func TestClaudeHydratesLateAndExpiresSessions(t *testing.T) {
	ui := siteUIs[3]
	t.Run("slow hydration keeps send disabled and wipes early typing", func(t *testing.T) {
		env := withPageScenario(t, sim.Claude, sim.ScenarioSlowHydration, map[string]string{"hydrate": "1s"})
		p := env.Page(t, sim.URL(sim.Claude, "/new"), 20*time.Second)
		waitExists(t, p, ui.composer, 5*time.Second)
		typeExecCommand(t, p, ui.composer, "too early")
		if !exists(p, `button[aria-label="Send message"][disabled]`) {
			t.Fatal("send is not disabled before hydration")
		}
		time.Sleep(1200 * time.Millisecond)
		if txt := p.MustEval(`(s) => document.querySelector(s).innerText.trim()`, ui.composer).Str(); txt != "" {
			t.Fatalf("composer kept %q across hydration", txt)
		}
		askSite(t, p, ui, "in time")
		waitExists(t, p, ui.done, 10*time.Second)
		if n := env.Server.SubmissionCount(sim.Claude); n != 1 {
			t.Fatalf("submissions = %d", n)
		}
	})
	t.Run("an expired session shows a log-in dialog", func(t *testing.T) {
		env := withPageScenario(t, sim.Claude, sim.ScenarioSessionExpired, nil)
		p := env.Page(t, sim.URL(sim.Claude, "/new"), 20*time.Second)
		waitText(t, p, `[role="dialog"]`, 5*time.Second, contains("Your session has expired"))
	})
}

func TestLongAnswersAndPaceOnOtherSites(t *testing.T) {
	env := simtest.Shared(t)
	env.Server.Reset()
	t.Cleanup(env.Server.Reset)
	b := string(post(t, sim.DeepSeek, "/api/v0/chat/completion", "application/json", []byte(`{"prompt":"[[sim:scenario=long chunk=4000 interval=0s]]","chat_session_id":"s"}`), map[string]string{"x-ds-pow-response": "x"}))
	if len(b) < 100<<10 || !strings.Contains(b, "End of the long answer.") {
		t.Fatalf("long answer of %d bytes", len(b))
	}
	resp, err := env.Server.Client().Post(sim.URL(sim.Grok, "/__sim/pace"), "application/json", strings.NewReader(`{"chunk":1000,"interval":"0s"}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("set pace: %v %v", err, resp)
	}
	resp.Body.Close()
	g := string(post(t, sim.Grok, "/rest/app-chat/conversations/new", "application/json", []byte(`{"message":"hi"}`), nil))
	if n := strings.Count(g, `"token":"`); n != 2 { // the whole answer in one token, plus the soft-stop token
		t.Fatalf("with chunk 1000 the answer took %d token lines, want 2", n)
	}
}
