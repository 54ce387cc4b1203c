package notify

import (
	"errors"
	"strings"
	"testing"
)

func TestBroadcastEndsAreOneNotice(t *testing.T) {
	var g Groups
	if err := g.Broadcast(func(add func(string)) error {
		for _, id := range []string{"j1", "j2", "j3"} {
			add(id)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	done := func(site, body, target string) GroupEnd {
		return GroupEnd{Site: site, Done: true, Notice: Notice{Summary: "Answer ready · " + site, Body: body, Target: target}}
	}
	if _, ok := g.Ended("j2", done("Claude", "Boats cross", "s2")); ok {
		t.Fatal("a notice before the broadcast's last run ended")
	}
	if _, ok := g.Ended("j1", done("ChatGPT", "Ferries run", "s1")); ok {
		t.Fatal("a notice before the broadcast's last run ended")
	}
	n, ok := g.Ended("j3", GroupEnd{Site: "Gemini", Notice: Notice{Summary: "Run failed · Gemini", Body: "not logged in", Target: "s3"}})
	if !ok {
		t.Fatal("no notice when the broadcast's last run ended")
	}
	if n.Summary != "Broadcast finished · 2 answers, 1 failed" || n.Target != "s1" {
		t.Errorf("notice %+v, want one summary for the broadcast, opening its first site's run", n)
	}
	if want := "ChatGPT: Ferries run\nClaude: Boats cross\nGemini failed: not logged in"; n.Body != want {
		t.Errorf("body %q, want %q (the sites in the broadcast's order)", n.Body, want)
	}
	if got, ok := g.Ended("j4", done("ChatGPT", "alone", "s4")); !ok || got.Summary != "Answer ready · ChatGPT" {
		t.Errorf("a run of no broadcast: %+v %v, want its own notice", got, ok)
	}
	if len(g.byJob) != 0 {
		t.Errorf("an ended broadcast is still remembered: %v", g.byJob)
	}

	t.Run("none while the window has the focus", func(t *testing.T) {
		g.Focused(true)
		defer g.Focused(false)
		_ = g.Broadcast(func(add func(string)) error { add("k1"); add("k2"); return nil })
		for _, id := range []string{"k1", "k2"} {
			if n, ok := g.Ended(id, done("Kimi", "x", id)); ok {
				t.Fatalf("notice %+v while the window has the focus", n)
			}
		}
		if _, ok := g.Ended("k3", done("Kimi", "x", "k3")); ok {
			t.Fatal("a single run's notice while the window has the focus")
		}
	})

	t.Run("a broadcast cut short by an error is the runs it started", func(t *testing.T) {
		err := g.Broadcast(func(add func(string)) error { add("m1"); add("m2"); return errors.New("start the kimi run: refused") })
		if err == nil || !strings.Contains(err.Error(), "kimi") {
			t.Fatalf("error %v, want submit's", err)
		}
		g.Ended("m1", done("ChatGPT", "a", "m1"))
		if n, ok := g.Ended("m2", done("Claude", "b", "m2")); !ok || n.Summary != "Broadcast finished · 2 answers" {
			t.Fatalf("notice %+v %v, want the two started runs as one", n, ok)
		}
	})
}
