package core

import (
	"context"
	"strings"

	"github.com/ferrydesk/ferry/backend/artifact/library"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// ListArtifacts lists every zip and generated image of the data
// directory's artifacts directory and the zips of its quarantine, newest
// first, each with the verdict its provenance sidecar records checked
// against the bytes on disk; with req.Path, only the file the library
// lists at that path (none when it lists nothing there). Errors:
// errs.HubForbidden for an agent; errs.StoreIO for an unreadable
// directory or file.
func (s *Service) ListArtifacts(ctx context.Context, c service.Caller, req service.ListArtifactsRequest) (service.ArtifactList, error) {
	if err := admit(c, "list the artifacts", req); err != nil {
		return service.ArtifactList{}, err
	}
	dir := s.c.Paths().ArtifactsDir()
	var items []service.ArtifactItem
	var err error
	if req.Path != "" {
		var it service.ArtifactItem
		var ok bool
		if it, ok, err = library.At(ctx, dir, req.Path); ok {
			items = []service.ArtifactItem{it}
		}
	} else {
		items, err = library.List(ctx, dir)
	}
	if items == nil {
		items = []service.ArtifactItem{}
	}
	out := service.ArtifactList{Dir: dir, Items: items}
	if err == nil {
		s.tellArtifactRuns(ctx, out.Items)
	}
	return out, err
}

// tellArtifactRuns sets each item's Run from the history: when, in what
// words and how the run that brought it home went. An item whose run the
// history no longer holds (or that names none) keeps a nil Run; a history
// that cannot be read leaves them all so, since the files themselves are
// what the list is for.
func (s *Service) tellArtifactRuns(ctx context.Context, items []service.ArtifactItem) {
	repo, err := s.c.History(ctx)
	if err != nil {
		return
	}
	runs := map[string]*record.ArtifactRun{}
	for i := range items {
		id := items[i].Session
		if id == "" {
			continue
		}
		r, seen := runs[id]
		if !seen {
			if sess, err := repo.Get(ctx, id); err == nil {
				r = &record.ArtifactRun{ID: sess.ID, Prompt: promptOpening(sess.Title(), 160), Created: sess.Created, State: sess.State}
			}
			runs[id] = r
		}
		items[i].Run = r
	}
}

// promptOpening is the start of a prompt on one line, at most n runes.
func promptOpening(p string, n int) string {
	p = strings.Join(strings.Fields(p), " ")
	if r := []rune(p); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return p
}
