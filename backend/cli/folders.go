package cli

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"

	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// foldersEdit is what `ferry clients folders ID` changes in the client's
// allowed folders: the folders to allow, those to take back, or all.
type foldersEdit struct {
	add, remove []string
	clear       bool
}

func (e foldersEdit) changes() bool { return len(e.add) > 0 || len(e.remove) > 0 || e.clear }

// foldersEditOf reads --add, --remove and --clear, each folder made
// absolute from the working directory; a folder to allow must be an
// existing directory. Errors: errs.BadInput.
func foldersEditOf(inv *invocation) (foldersEdit, error) {
	e := foldersEdit{clear: inv.flag("clear").(bool)}
	abs := func(flagName string) ([]string, error) {
		var out []string
		for _, d := range inv.fs.Lookup(flagName).Value.(flag.Getter).Get().([]string) {
			p, err := filepath.Abs(d)
			if err != nil {
				return nil, errs.Wrap(err, errs.BadInput, "resolve --%s %s: %v", flagName, d, err)
			}
			out = append(out, p)
		}
		return out, nil
	}
	var err error
	if e.add, err = abs("add"); err != nil {
		return e, err
	}
	if e.remove, err = abs("remove"); err != nil {
		return e, err
	}
	for _, d := range e.add {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return e, errs.New(errs.BadInput, "--add %s is not a directory", d).WithEvidence("folder", d).
				WithHint("give a folder that exists; the client may attach the files under it")
		}
	}
	return e, nil
}

// apply is roots after the edit: cleared first, then the removals, then
// the additions in order, each folder once.
// Errors: errs.BadInput for a folder to remove that the client does not
// have.
func (e foldersEdit) apply(roots []string) ([]string, error) {
	for _, r := range e.remove {
		if !slices.Contains(roots, r) {
			return nil, errs.New(errs.BadInput, "%s is not one of the client's folders", r).WithEvidence("folder", r).
				WithHint("`ferry clients folders ID` lists them")
		}
	}
	out := []string{}
	if !e.clear {
		for _, r := range roots {
			if !slices.Contains(e.remove, r) {
				out = append(out, r)
			}
		}
	}
	for _, a := range e.add {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, nil
}

// runFolders lists client id's allowed folders, after changing them when
// edit asks to. Errors: errs.HubNotFound for an unknown client; the
// Service's (errs.BadInput for a revoked client or a folder it does not
// have).
func runFolders(ctx context.Context, inv *invocation, svc service.Service, id string, edit foldersEdit) error {
	list, err := svc.ListClients(ctx, cliCaller, service.ListClientsRequest{})
	if err != nil {
		return err
	}
	i := slices.IndexFunc(list, func(c service.ClientInfo) bool { return c.ID == id })
	if i < 0 {
		return errs.New(errs.HubNotFound, "no paired client has id %q", safetext.Line(id)).WithHint("`ferry clients list` shows the clients")
	}
	info := list[i]
	if edit.changes() {
		roots, err := edit.apply(info.FileRoots)
		if err != nil {
			return err
		}
		if info, err = svc.SetFileRoots(ctx, cliCaller, service.FileRootsRequest{ID: id, Roots: roots}); err != nil {
			return err
		}
	}
	if inv.json {
		if info.FileRoots == nil {
			info.FileRoots = []string{}
		}
		return inv.printJSON(map[string]any{"id": info.ID, "name": info.Name, "fileRoots": info.FileRoots})
	}
	return termtext.Folders(inv.stdout, info)
}
