package app

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// quitOnSignal makes SIGTERM and SIGINT close the window the normal way, so
// the store is closed and the process exits 0 (session managers, `kill` and
// Ctrl+C in a terminal all count as a user closing Ferry). A signal that
// arrives before the window started closes the store and exits at once.
// The returned func stops listening.
func quitOnSignal(sh *shell) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			// A second signal should kill as usual, should closing hang.
			signal.Stop(ch)
			if !sh.quit() {
				sh.closeCore()
				os.Exit(0)
			}
		case <-done:
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
		})
	}
}
