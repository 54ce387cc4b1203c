package cli

import (
	"context"
	"fmt"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
)

// remoteTemplates is ferry templates through the owner: the same checks,
// in the same order, and the same printing as runTemplates.
func remoteTemplates(ctx context.Context, inv *invocation, cl *client.Client) error {
	if len(inv.args) == 0 {
		return errs.New(errs.BadInput, "ferry templates needs one of list, show, save, delete").WithHint("run `ferry help templates`")
	}
	verb, rest := inv.args[0], inv.args[1:]
	need := map[string]int{"list": 0, "show": 1, "save": 1, "delete": 1}
	n, ok := need[verb]
	if !ok {
		return errs.New(errs.BadInput, "unknown templates command %q", verb).WithHint("use list, show, save or delete")
	}
	if len(rest) != n {
		return errs.New(errs.BadInput, "ferry templates %s takes %d argument(s), got %d", verb, n, len(rest)).WithHint("run `ferry help templates`")
	}
	switch verb {
	case "list":
		list, err := cl.Templates(ctx)
		if err != nil {
			return err
		}
		infos := make([]core.TemplateInfo, 0, len(list))
		for _, t := range list {
			infos = append(infos, templateIn(t))
		}
		return printTemplateList(inv, infos)
	case "show":
		t, err := cl.Template(ctx, rest[0])
		if err != nil {
			return err
		}
		return printTemplate(inv, templateIn(t))
	case "save":
		info, err := templateToSave(inv, rest[0])
		if err != nil {
			return err
		}
		saved, err := cl.SaveTemplate(ctx, hub.Template{Name: info.Name, Description: info.Description, Body: info.Body, Variables: info.Variables})
		if err != nil {
			return err
		}
		t := templateIn(saved)
		if inv.json {
			return inv.printJSON(t)
		}
		fmt.Fprintf(inv.stdout, "saved template %s (variables: %s)\n", t.Name, orNone(t.Variables))
		return nil
	}
	if err := cl.DeleteTemplate(ctx, rest[0]); err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(map[string]any{"deleted": rest[0]})
	}
	fmt.Fprintf(inv.stdout, "deleted template %s\n", rest[0])
	return nil
}

func templateIn(t hub.Template) core.TemplateInfo {
	return core.TemplateInfo{Name: t.Name, Description: t.Description, Body: t.Body, Variables: t.Variables, BuiltIn: t.BuiltIn, UpdatedAt: t.UpdatedAt}
}
