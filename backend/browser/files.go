package browser

import (
	"context"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// SetFiles gives the first <input type=file> matching one of sels (in
// order; hidden inputs count, as sites hide theirs) the files at paths, as
// the file picker would (CDP DOM.setFileInputFiles): the page sees a
// trusted change event. It neither focuses nor activates the tab. Errors:
// ComposerNotFound when no selector matches a file input; the page's
// envelopes.
func (p *Page) SetFiles(ctx context.Context, sels []string, paths []string) error {
	expr, err := expression(`(sels) => {
  for (const s of sels) {
    let el;
    try { el = document.querySelector(s); } catch (e) { continue; }
    if (el && el.tagName === 'INPUT' && el.type === 'file') return el;
  }
  return null;
}`, []any{sels})
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "find the file input: %v", err)
	}
	var reply evalReply
	if err := p.Exec(ctx, "Runtime.evaluate", evalParams{Expression: expr}, &reply); err != nil {
		return err
	}
	if reply.Result.ObjectID == "" {
		return errs.New(errs.ComposerNotFound, "no file input matches %s", strings.Join(sels, " | ")).
			WithEvidence("selector", strings.Join(sels, " | "))
	}
	defer p.release(ctx, reply.Result.ObjectID)
	return p.Exec(ctx, "DOM.setFileInputFiles", map[string]any{"files": paths, "objectId": reply.Result.ObjectID}, nil)
}

// DropFiles drops the files at paths on the first visible element matching
// sel with a trusted drag (CDP Input.dispatchDragEvent: enter, over, drop),
// for pages that take files only by drag and drop. Errors:
// ComposerNotFound when nothing matches; ErrObscured (wrapped) when another
// element covers the target; the page's envelopes.
func (p *Page) DropFiles(ctx context.Context, sel string, paths []string) error {
	return p.withInput(ctx, func() error {
		l, err := p.locateFound(ctx, sel)
		if err != nil {
			return err
		}
		data := map[string]any{"items": []any{}, "files": paths, "dragOperationsMask": 1}
		for _, typ := range []string{"dragEnter", "dragOver", "drop"} {
			ev := map[string]any{"type": typ, "x": l.X, "y": l.Y, "data": data}
			if err := p.Exec(ctx, "Input.dispatchDragEvent", ev, nil); err != nil {
				return err
			}
		}
		return nil
	})
}

// release frees a remote object the page handed out, waiting at most
// cleanupTimeout: a page that stopped answering (a modal dialog its change
// handler opened, a renderer stuck in a script) must not hold the caller
// past its deadline. After ctx ended it is not asked at all, as it most
// likely did not answer the call before. An object not released goes with
// Ferry's session of the tab.
func (p *Page) release(ctx context.Context, id string) {
	if ctx.Err() != nil {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	_ = p.Exec(rctx, "Runtime.releaseObject", map[string]any{"objectId": id}, nil)
}
