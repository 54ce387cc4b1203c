// Package templates is the prompt templates a user picks from: the built-in
// ones (prompt.BuiltinTemplates, read-only) and the user's own, stored
// under template/<name> in the data directory's store. It lists, reads,
// saves (with prompt's validation and one rule more: a body declares every
// variable it uses) and deletes them, and renders one with a run's
// variables. Package prompt holds the rendering itself, which touches no
// store.
package templates

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/store"
)

// Info is one user-level prompt template as the desktop, the CLI and
// the hub see it: a body with {{variables}}, the variables it declares, and
// whether it is built in (read-only) or the user's (stored under
// template/<name>, editable).
type Info struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Body        string `json:"body"`
	// Variables are the names the body may use, each required at render
	// time; a body that uses a name not listed here does not save.
	Variables []string  `json:"variables"`
	BuiltIn   bool      `json:"builtIn"`
	UpdatedAt time.Time `json:"updatedAt,omitzero"`
}

// Repo lists, reads, saves, deletes and renders the templates: the
// built-in ones (prompt.BuiltinTemplates) and the user's, persisted in a
// store. The zero value is unusable; get one from New.
type Repo struct{ store func() *store.Store }

// New is the repository of the templates kept in the store that st
// returns; st returns nil once that store is closed, and the repository's
// calls then fail with errs.Internal.
func New(st func() *store.Store) Repo { return Repo{store: st} }

// storedTemplate is the JSON value of template/<name>.
type storedTemplate struct {
	Name        string    `json:"name"`
	Description string    `json:"description,omitempty"`
	Body        string    `json:"body"`
	Variables   []string  `json:"variables"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// List returns the built-in templates and then the user's, each group
// sorted by name; BuiltIn marks the first group. Errors: StoreIO, or
// StoreCorrupt for a stored value that does not decode.
func (r Repo) List(ctx context.Context) ([]Info, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Info
	for _, t := range prompt.BuiltinTemplates() {
		out = append(out, infoOfBuiltin(t))
	}
	st, err := r.open()
	if err != nil {
		return nil, err
	}
	var user []Info
	err = st.Scan(store.PrefixTemplate, func(key, val []byte) error {
		t, err := decodeTemplate(key, val)
		if err != nil {
			return err
		}
		user = append(user, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(user, func(i, j int) bool { return user[i].Name < user[j].Name })
	return append(out, user...), nil
}

// Get returns the template called name, built-in or the user's. Errors:
// TemplateNotFound naming it and the list command; StoreIO; StoreCorrupt.
func (r Repo) Get(ctx context.Context, name string) (Info, error) {
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	if t, ok := prompt.BuiltinTemplate(name); ok {
		return infoOfBuiltin(t), nil
	}
	if store.ValidID(name) != nil {
		return Info{}, notFound(name)
	}
	st, err := r.open()
	if err != nil {
		return Info{}, err
	}
	val, err := st.Get(store.TemplateKey(name))
	if errors.Is(err, store.ErrNotFound) {
		return Info{}, notFound(name)
	}
	if err != nil {
		return Info{}, errs.Wrap(err, errs.StoreIO, "read template %q: %v", name, err)
	}
	return decodeTemplate(store.TemplateKey(name), val)
}

// Save validates t and stores it as the user's template t.Name, replacing
// one of that name, stamped with the current time; it returns what was
// stored. Errors (nothing is written then): TemplateInvalid for a bad name,
// an empty body, a body that does not parse, a variable used in the body
// but not declared in Variables (named with its line and column), a
// declared variable the body never uses, or one declared twice; BadInput
// for the name of a built-in template; StoreIO; DiskFull (the store's,
// naming the directory and the space) when the disk has no room.
func (r Repo) Save(ctx context.Context, t Info) (Info, error) {
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	t.Name = strings.TrimSpace(t.Name)
	t.Description = strings.TrimSpace(t.Description)
	if _, ok := prompt.BuiltinTemplate(t.Name); ok {
		return Info{}, errs.New(errs.BadInput, "%q is a built-in template and cannot be replaced", t.Name).
			WithEvidence("template", t.Name).WithHint("save your version under another name")
	}
	pt := promptTemplate(t)
	if err := validateDeclared(pt); err != nil {
		return Info{}, err
	}
	st, err := r.open()
	if err != nil {
		return Info{}, err
	}
	rec := storedTemplate{Name: t.Name, Description: t.Description, Body: t.Body,
		Variables: append([]string{}, t.Variables...), UpdatedAt: time.Now().UTC()}
	val, err := json.Marshal(rec)
	if err != nil {
		return Info{}, errs.Wrap(err, errs.Internal, "encode template %q: %v", t.Name, err)
	}
	if err := st.Put(store.TemplateKey(t.Name), val); err != nil {
		if errors.Is(err, store.ErrValueTooLarge) {
			return Info{}, errs.Wrap(err, errs.BadInput, "store template %q: %v", t.Name, err).
				WithHint("shorten the template body")
		}
		if errs.Has(err, errs.DiskFull) {
			return Info{}, err // names the directory and the space; nothing was written
		}
		return Info{}, errs.Wrap(err, errs.StoreIO, "store template %q: %v", t.Name, err)
	}
	return infoOfStored(rec), nil
}

// Delete removes the user's template called name. Errors: BadInput for a
// built-in template; TemplateNotFound when there is no such user template;
// StoreIO.
func (r Repo) Delete(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, ok := prompt.BuiltinTemplate(name); ok {
		return errs.New(errs.BadInput, "%q is a built-in template and cannot be deleted", name).WithEvidence("template", name)
	}
	if store.ValidID(name) != nil {
		return notFound(name)
	}
	st, err := r.open()
	if err != nil {
		return err
	}
	return st.Update(func(tx *store.Tx) error {
		ok, err := tx.Has(store.TemplateKey(name))
		if err != nil {
			return err
		}
		if !ok {
			return notFound(name)
		}
		return tx.Delete(store.TemplateKey(name))
	})
}

// Render fills the template called name with vars and returns the prompt
// text. Errors: TemplateNotFound; BadInput naming a variable the template
// needs that vars lacks (with the --var fix), or a value for a variable the
// template does not use; TemplateInvalid for a template that no longer
// parses; as Get.
func (r Repo) Render(ctx context.Context, name string, vars map[string]string) (string, error) {
	t, err := r.Get(ctx, name)
	if err != nil {
		return "", err
	}
	return renderInfo(t, vars)
}

// renderInfo renders t with vars; see Render.
func renderInfo(t Info, vars map[string]string) (string, error) {
	pt := promptTemplate(t)
	used, err := pt.Variables()
	if err != nil {
		return "", err
	}
	usedSet := map[string]bool{}
	var missing []string
	for _, v := range used {
		usedSet[v] = true
		if _, ok := vars[v]; !ok {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		flags := make([]string, 0, len(missing))
		for _, m := range missing {
			flags = append(flags, "--var "+m+"=VALUE")
		}
		return "", errs.New(errs.BadInput, "template %q needs a value for %s", t.Name, quoteList(missing)).
			WithEvidence("template", t.Name).WithEvidence("variable", missing[0]).
			WithHint("add %s", strings.Join(flags, " "))
	}
	var extra []string
	for k := range vars {
		if !usedSet[k] {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		known := "none"
		if len(used) > 0 {
			known = strings.Join(used, ", ")
		}
		return "", errs.New(errs.BadInput, "template %q has no variable %s", t.Name, quoteList(extra)).
			WithEvidence("template", t.Name).WithEvidence("variable", extra[0]).
			WithHint("its variables are: %s", known)
	}
	return pt.Render(vars)
}

// validateDeclared is prompt's validation with one rule more: every
// variable the body uses must be declared (prompt alone accepts a body
// without declarations).
func validateDeclared(pt prompt.Template) error {
	if err := pt.Validate(); err != nil {
		return err
	}
	if len(pt.Vars) > 0 {
		return nil // Validate checked use against the declarations
	}
	used, err := pt.Variables()
	if err != nil {
		return err
	}
	if len(used) > 0 {
		return errs.New(errs.TemplateInvalid, "template %q uses %s but declares no variables", pt.Name, quoteList(used)).
			WithEvidence("variable", used[0]).
			WithHint("declare them (`ferry templates save NAME --file F --vars %s`), or remove them from the body", strings.Join(used, ","))
	}
	return nil
}

func promptTemplate(t Info) prompt.Template {
	pt := prompt.Template{Name: t.Name, Description: t.Description, Body: t.Body, UpdatedAt: t.UpdatedAt}
	for _, v := range t.Variables {
		pt.Vars = append(pt.Vars, prompt.Var{Name: strings.TrimSpace(v), Required: true})
	}
	return pt
}

func infoOfBuiltin(t prompt.Template) Info {
	out := Info{Name: t.Name, Description: t.Description, Body: t.Body, Variables: []string{}, BuiltIn: true}
	for _, v := range t.Vars {
		out.Variables = append(out.Variables, v.Name)
	}
	return out
}

func infoOfStored(s storedTemplate) Info {
	vars := append([]string{}, s.Variables...)
	return Info{Name: s.Name, Description: s.Description, Body: s.Body, Variables: vars, UpdatedAt: s.UpdatedAt}
}

func decodeTemplate(key, val []byte) (Info, error) {
	var s storedTemplate
	if err := json.Unmarshal(val, &s); err != nil {
		return Info{}, errs.Wrap(err, errs.StoreCorrupt, "decode %s: %v", key, err).
			WithHint("delete the template with `ferry templates delete` and save it again")
	}
	return infoOfStored(s), nil
}

func notFound(name string) error {
	return errs.New(errs.TemplateNotFound, "no template named %q", name).WithEvidence("template", name).
		WithHint("`ferry templates list` shows the templates")
}

// open is the repository's store. Errors: errs.Internal once it is
// closed.
func (r Repo) open() (*store.Store, error) {
	var st *store.Store
	if r.store != nil {
		st = r.store()
	}
	if st == nil {
		return nil, errs.New(errs.Internal, "the template store is closed").WithHint("open the data directory again")
	}
	return st, nil
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	return strings.Join(q, ", ")
}
