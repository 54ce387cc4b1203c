//go:build desktop || dev

package tray

import (
	"log/slog"
	"sync"

	"fyne.io/systray"
)

// Start shows the tray icon through fyne.io/systray, its loop run by
// trayLoop (loop_unix.go: Wails' loop with RunWithExternalLoop;
// loop_windows.go: a thread of its own). The caller asks the session's
// Place first: on Linux systray crashes at shutdown when it never
// connected to a bus. Whether the desktop shows the icon is the
// Place's to say.
func Start(icon []byte, actions Actions, log *slog.Logger) (Icon, error) {
	t := &fyneTray{ready: make(chan struct{})}
	t.end = trayLoop(func() { t.build(icon, actions) })
	<-t.ready
	return t, nil
}

// fyneTray is the systray menu; its recent-run slots are made once and
// retitled, since dbusmenu clients cache the layout.
type fyneTray struct {
	ready chan struct{}
	end   func()

	mu     sync.Mutex
	slots  []*systray.MenuItem
	ids    []string
	onRun  func(id string)
	closed bool
}

func (t *fyneTray) build(icon []byte, a Actions) {
	defer close(t.ready)
	if data := trayIconData(icon); len(data) > 0 {
		systray.SetIcon(data)
	}
	systray.SetTitle("Ferry")
	systray.SetTooltip("Ferry")
	quick := systray.AddMenuItem("Quick prompt…", "Ask a site from a small box")
	show := systray.AddMenuItem("Show Ferry", "Bring the Ferry window up")
	systray.AddSeparator()
	t.onRun = a.ShowRun
	for i := 0; i < Recent; i++ {
		item := systray.AddMenuItem("", "Show this run in Ferry")
		item.Hide()
		t.slots = append(t.slots, item)
		t.ids = append(t.ids, "")
		go t.follow(item.ClickedCh, func() { t.clicked(i) })
	}
	systray.AddSeparator()
	quit := systray.AddMenuItem("Quit", "Close Ferry")
	go t.follow(quick.ClickedCh, a.QuickPrompt)
	go t.follow(show.ClickedCh, a.Show)
	go t.follow(quit.ClickedCh, a.Quit)
}

func (t *fyneTray) follow(ch <-chan struct{}, fn func()) {
	for range ch {
		fn()
	}
}

func (t *fyneTray) clicked(i int) {
	t.mu.Lock()
	id := t.ids[i]
	t.mu.Unlock()
	if id != "" {
		t.onRun(id)
	}
}

func (t *fyneTray) SetRecent(runs []Entry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	for i, item := range t.slots {
		if i < len(runs) {
			t.ids[i] = runs[i].ID
			item.SetTitle(runs[i].Label)
			item.Show()
		} else {
			t.ids[i] = ""
			item.Hide()
		}
	}
}

func (t *fyneTray) Stop() {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	t.closed = true
	t.mu.Unlock()
	t.end()
}

var _ Icon = (*fyneTray)(nil)
