package app

// Events about the owner that the window subscribes to
// (frontend/src/lib/api).
const (
	// EventBrowser carries the service.BrowserState after the browser
	// connected, disconnected or was replaced.
	EventBrowser = "browser:changed"
	// EventHub carries the gateway's approval and client events to the
	// window: approval.requested is the user's cue to approve or reject an
	// agent's job.
	EventHub = "hub:event"
	// EventRun carries an event.RunEvent: a run's new state, its answer so far,
	// or its end (then the UI asks Runs.Get for the whole record).
	EventRun = "run:event"
	// EventTabs says the owner's tabs changed (one opened, closed,
	// navigated, or what Ferry learned of one changed): the window lists
	// them again. It carries nothing and comes once things settle.
	EventTabs = "tabs:changed"
)
