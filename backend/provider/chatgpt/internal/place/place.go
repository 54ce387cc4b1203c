// Package place reads where a new ChatGPT chat is asked to open, from
// providers.md ("Tools", "Projects"): a project's page is
// /g/g-p-<id>[-slug]/project and its chats /g/<short_url>/c/<id>; a custom
// GPT is /g/g-<id>[-slug]. A project may also be named, and is then
// matched among the account's projects (exactly, else ignoring case).
package place

import (
	"cmp"
	"net/url"
	"regexp"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
)

var (
	projectPath = regexp.MustCompile(`^/g/(g-p-[A-Za-z0-9]{32}(?:-[A-Za-z0-9-]*)?)(?:/project)?/?$`)
	gptPath     = regexp.MustCompile(`^/g/(g-[A-Za-z0-9]+(?:-[A-Za-z0-9-]*)?)/?$`)
)

// FromAddress is the place of kind ("project" or "gpt") that ref names by
// its address on origin; ok is false for a ref that is no address (a
// project's name). Errors: BadInput for an address that is not one of
// kind, or a custom GPT named rather than addressed.
func FromAddress(origin, kind, ref string) (p record.Place, ok bool, err error) {
	if u, err := url.Parse(ref); err == nil && u.Scheme != "" {
		re := gptPath
		if kind == "project" {
			re = projectPath
		}
		m := re.FindStringSubmatch(u.EscapedPath())
		if u.Scheme != "https" || u.Host != "chatgpt.com" || m == nil || (kind == "gpt" && strings.HasPrefix(m[1], "g-p-")) {
			return record.Place{}, true, errs.New(errs.BadInput, "%s is not the address of a ChatGPT %s", clip(ref), Word(kind)).
				WithHint("copy the address from the %s's page: https://chatgpt.com/g/%s…", Word(kind), map[bool]string{true: "g-p-", false: "g-"}[kind == "project"])
		}
		return At(origin, kind, "", m[1]), true, nil
	}
	if kind != "project" {
		return record.Place{}, true, errs.New(errs.BadInput, "a custom GPT is chosen by its address, not %q", clip(ref)).
			WithHint("copy the GPT's address: https://chatgpt.com/g/g-…")
	}
	return record.Place{}, false, nil
}

// ByName is the project of projects named ref: exactly, else ignoring
// case. Errors: BadInput for a name no project has or several have (the
// projects listed).
func ByName(projects []record.Place, ref string) (record.Place, error) {
	var exact, folded []record.Place
	names := make([]string, 0, len(projects))
	for _, p := range projects {
		names = append(names, p.Name)
		if p.Name == ref {
			exact = append(exact, p)
		}
		if strings.EqualFold(p.Name, ref) {
			folded = append(folded, p)
		}
	}
	found := exact
	if len(found) == 0 {
		found = folded
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return record.Place{}, errs.New(errs.BadInput, "ChatGPT has no project named %q (its projects: %s)", clip(ref), cmp.Or(strings.Join(names, ", "), "none")).
			WithHint("give one of the names listed, or the project's address")
	}
	return record.Place{}, errs.New(errs.BadInput, "%d ChatGPT projects are named %q", len(found), clip(ref)).
		WithHint("give the project's address (https://chatgpt.com/g/g-p-…/project) instead of its name")
}

// IsProject reports whether short (a gizmo's short_url) is a project's.
func IsProject(short string) bool { return projectPath.MatchString("/g/" + short) }

// ProjectID is the g-p-<32> id of a project's address ("" for another).
func ProjectID(address string) string {
	u, err := url.Parse(address)
	if err != nil {
		return ""
	}
	if m := projectPath.FindStringSubmatch(u.EscapedPath()); m != nil {
		return m[1][:36]
	}
	return ""
}

// At is the place of kind named name whose short_url is short, on origin.
func At(origin, kind, name, short string) record.Place {
	addr := origin + "/g/" + short
	if kind == "project" {
		addr += "/project"
	}
	return record.Place{Kind: kind, Name: name, Address: addr}
}

// Word is what the user calls a place of kind: "project", "custom GPT".
func Word(kind string) string {
	if kind == "gpt" {
		return "custom GPT"
	}
	return kind
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
