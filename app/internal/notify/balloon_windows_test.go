package notify

import "testing"

// The notification icon's window starts on its thread, takes a notice
// without blocking, and its thread ends on Close; a second one while the
// first is up is refused (one window procedure serves one notifier).
func TestBalloonNotifierStartsAndCloses(t *testing.T) {
	n, err := startBalloonNotifier(nil, func(string) {})
	if err != nil {
		t.Fatalf("startBalloonNotifier: %v", err)
	}
	if _, err := startBalloonNotifier(nil, func(string) {}); err == nil {
		t.Error("a second notifier started beside the first")
	}
	if err := n.Notify(Notice{Summary: "ChatGPT answered", Body: "a haiku", Target: "run-1"}); err != nil {
		t.Errorf("Notify: %v", err)
	}
	if err := n.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case <-n.done:
	default:
		t.Fatal("the window's thread still runs after Close")
	}
	if err := n.Notify(Notice{Summary: "late"}); err == nil {
		t.Error("Notify after Close succeeded")
	}
	again, err := startBalloonNotifier(nil, func(string) {})
	if err != nil {
		t.Fatalf("a notifier after Close: %v", err)
	}
	_ = again.Close()
}
