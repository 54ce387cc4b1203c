package record

import "testing"

func TestStateClassesAgree(t *testing.T) {
	for _, s := range States {
		t.Run(string(s)+" is classified consistently", func(t *testing.T) {
			if s.Terminal() && s.Active() {
				t.Fatal("terminal and active")
			}
			if s.Sent() && s.Unsent() {
				t.Fatal("sent and unsent")
			}
			if s == StateSubmitting && (s.Sent() || s.Unsent()) {
				t.Fatal("submitting must be neither sent nor unsent: nobody knows")
			}
		})
	}
}
