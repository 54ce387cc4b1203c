package app

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// ChooseFolder asks the user for a folder (the native directory dialog)
// and returns its path, or "" when the user cancelled. Errors: internal
// when the window cannot show the dialog.
func (g *Gateway) ChooseFolder() (string, error) {
	if g.desk == nil {
		return "", errs.New(errs.Internal, "this window cannot show a folder dialog")
	}
	return g.desk.ChooseFolder("Allow a folder for attachments")
}

// SetClientFolders replaces the folders under which a client's jobs may
// attach files (none: it may attach no file). Errors: hub_not_found;
// bad_input for a revoked client or a folder that is not an absolute path.
func (g *Gateway) SetClientFolders(clientID string, folders []string) (service.ClientInfo, error) {
	var out service.ClientInfo
	err := g.call(func(ctx context.Context, svc service.Service) error {
		var err error
		out, err = svc.SetFileRoots(ctx, desktopCaller, service.FileRootsRequest{ID: clientID, Roots: folders})
		return err
	})
	return out, err
}
