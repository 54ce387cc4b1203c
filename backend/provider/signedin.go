package provider

import "context"

// SignedIn reads whether the page shows a logged-in account, the way a
// run's Ready decides it: known is false while the page has not finished
// loading (its ready marker is not visible yet), when the answer would be
// a guess. Errors: the page's envelopes (a navigation, a crash).
func (w *Web) SignedIn(ctx context.Context) (loggedIn, known bool, err error) {
	st, err := w.state(ctx)
	if err != nil {
		return false, false, err
	}
	if !st.Ready {
		return false, false, nil
	}
	return st.LoggedIn, true, nil
}
