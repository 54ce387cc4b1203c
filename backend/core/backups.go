package core

import (
	"context"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/store"
)

// backupCheck is how often a running owner looks whether a backup is due.
const backupCheck = time.Hour

// backups is an owner's rolling backups of the history into
// Paths.BackupsDir: one when the newest is older than store.BackupEvery
// (looked at on open and every backupCheck), one on a clean Close.
type backups struct {
	on     bool
	mu     sync.Mutex // one backup at a time
	last   store.BackupFile
	cancel context.CancelFunc
	done   chan struct{}
}

// startBackups starts the owner's loop of due backups.
func (c *Core) startBackups() {
	ctx, cancel := context.WithCancel(context.Background())
	c.bk.on, c.bk.cancel, c.bk.done = true, cancel, make(chan struct{})
	st, dir := c.store, c.paths.BackupsDir()
	go func() {
		defer close(c.bk.done)
		t := time.NewTicker(backupCheck)
		defer t.Stop()
		for {
			c.bk.mu.Lock()
			// A failed backup is retried at the next check; the closing
			// backup reports its own failure.
			if b, took, err := st.BackupIfDue(ctx, dir, store.BackupEvery); err == nil && took {
				c.bk.last = b
			}
			c.bk.mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// stopBackups stops the loop and waits for a backup in progress to end.
func (c *Core) stopBackups() {
	if c.bk.cancel == nil {
		return
	}
	c.bk.cancel()
	<-c.bk.done
}

// closingBackup is the owner's backup on a clean close; c.mu is held and
// the store open. Errors: store.Backup's.
func (c *Core) closingBackup() error {
	if !c.bk.on {
		return nil
	}
	c.bk.mu.Lock()
	defer c.bk.mu.Unlock()
	b, err := c.store.Backup(context.Background(), c.paths.BackupsDir())
	if err != nil {
		return err
	}
	c.bk.last = b
	return nil
}

// LastBackup is the newest backup this process wrote (zero when none).
func (c *Core) LastBackup() store.BackupFile {
	c.bk.mu.Lock()
	defer c.bk.mu.Unlock()
	return c.bk.last
}
