package store

import (
	"context"
	"sync"
	"time"
)

// backupCheck is how often rolling backups look whether a backup is due.
const backupCheck = time.Hour

// RollingBackups are an owner's rolling backups of its store into one
// directory: a backup whenever the newest there is older than BackupEvery
// (looked at when they start and every hour after), and one more when they
// close. A nil *RollingBackups takes none; its methods do nothing.
type RollingBackups struct {
	s   *Store
	dir string

	mu   sync.Mutex // one backup at a time
	last BackupFile

	cancel  context.CancelFunc
	done    chan struct{} // closed when the loop ended
	checked chan struct{} // closed when the check at start ended
}

// StartBackups starts the rolling backups of s into dir (the data
// directory's Paths.BackupsDir). The check at start runs in the background,
// so that an owner's start does not wait for a backup. A failed backup is
// retried at the next check; Close reports the closing one's failure.
func (s *Store) StartBackups(dir string) *RollingBackups {
	ctx, cancel := context.WithCancel(context.Background())
	r := &RollingBackups{s: s, dir: dir, cancel: cancel, done: make(chan struct{}), checked: make(chan struct{})}
	go r.loop(ctx)
	return r
}

// loop takes the due backups until ctx ends.
func (r *RollingBackups) loop(ctx context.Context) {
	defer close(r.done)
	r.check(ctx)
	close(r.checked)
	t := time.NewTicker(backupCheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.check(ctx)
		}
	}
}

// check takes a backup when one is due.
func (r *RollingBackups) check(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b, took, err := r.s.BackupIfDue(ctx, r.dir, BackupEvery); err == nil && took {
		r.last = b
	}
}

// Stop ends the checks and waits for a backup in progress to end; it takes
// no backup. Calling it again does nothing.
func (r *RollingBackups) Stop() {
	if r == nil {
		return
	}
	r.cancel()
	<-r.done
}

// Close stops the checks (see Stop) and takes the closing backup; the store
// must still be open. Errors: Backup's.
func (r *RollingBackups) Close(ctx context.Context) error {
	if r == nil {
		return nil
	}
	r.Stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	b, err := r.s.Backup(ctx, r.dir)
	if err != nil {
		return err
	}
	r.last = b
	return nil
}

// Last is the newest backup these rolling backups took (zero when none).
func (r *RollingBackups) Last() BackupFile {
	if r == nil {
		return BackupFile{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}
