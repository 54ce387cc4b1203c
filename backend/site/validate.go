package site

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream"
)

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// validate checks a complete site. Missing parts give one errs.SiteIncomplete
// envelope naming every missing part; wrong values give errs.ConfigInvalid
// naming the field and the fix.
func validate(s Site) error {
	var missing []string
	if s.ID == "" {
		missing = append(missing, "id")
	}
	if strings.TrimSpace(s.Name) == "" {
		missing = append(missing, "name")
	}
	if s.Address == "" {
		missing = append(missing, "address")
	}
	for _, r := range RequiredRoles() {
		if len(s.Selectors[r]) == 0 {
			missing = append(missing, "selectors."+string(r))
		}
	}
	if len(missing) > 0 {
		name := s.ID
		if name == "" {
			name = s.Name
		}
		return errs.New(errs.SiteIncomplete, "site %q is missing %s", name, strings.Join(missing, ", ")).
			WithEvidence("site", name).
			WithEvidence("missing", strings.Join(missing, ", ")).
			WithHint("add %s to the site's entry in settings (required roles: %s)", strings.Join(missing, ", "), joinRoles(RequiredRoles()))
	}
	bad := func(format string, args ...any) error {
		return errs.New(errs.ConfigInvalid, "site %q: "+format, append([]any{s.ID}, args...)...).WithEvidence("site", s.ID)
	}
	if err := validateUploads(s.Uploads); err != nil {
		return bad("%s", err.Error())
	}
	if !idPattern.MatchString(s.ID) {
		return bad("the id must be lower-case letters, digits, - or _, starting with a letter (at most 32)")
	}
	a, err := parseAddress(s.Address)
	if err != nil {
		return bad("%v", err)
	}
	if s.NewChat != "" && !a.allows(s.NewChat) {
		return bad("newChat %q is not under the address %q", Redact(s.NewChat), s.Address)
	}
	known := map[Role]bool{}
	for _, r := range Roles() {
		known[r] = true
	}
	for _, m := range []map[Role][]string{s.Selectors, s.Texts} {
		for r, list := range m {
			if !known[r] {
				return bad("unknown selector role %q (known roles: %s)", r, joinRoles(Roles()))
			}
			for _, sel := range list {
				if strings.TrimSpace(sel) == "" || strings.ContainsAny(sel, "\n\r") {
					return bad("role %q has an empty or multi-line selector", r)
				}
			}
		}
	}
	for r, f := range s.Optional {
		switch {
		case !known[r]:
			return bad("unknown optional role %q (known roles: %s)", r, joinRoles(Roles()))
		case isRequired(r):
			return bad("role %q cannot be optional: a plain ask needs it", r)
		case !knownFeatures[f] || f == FeatureChat:
			return bad("optional role %q: %q is no feature it can serve (use %s)", r, f, joinFeatures(allFeatures()[1:]))
		}
	}
	if len(s.Typing) == 0 {
		return bad("typing needs at least one strategy (%s)", strings.Join([]string{
			string(TypingInsertText), string(TypingExecCommand), string(TypingNativeSetter), string(TypingInputEvent)}, ", "))
	}
	for _, t := range s.Typing {
		if !knownTyping[t] {
			return bad("unknown typing strategy %q (use insert_text, exec_command, native_setter or input_event)", t)
		}
	}
	if !knownSend[s.Send] {
		return bad("unknown send method %q (use click, enter or ctrl_enter)", s.Send)
	}
	for _, f := range s.Features {
		if !knownFeatures[f] {
			return bad("unknown feature %q (known: %s)", f, joinFeatures(allFeatures()))
		}
		if f == FeatureCodeArtifacts && s.ID != "chatgpt" {
			return bad("code_artifacts is only available on chatgpt (sandbox files are ChatGPT's)")
		}
		if f == FeatureStreamCapture && (s.Stream == nil || s.Stream.Decoder == "") {
			return bad("stream_capture needs stream settings with a decoder")
		}
	}
	if st := s.Stream; st != nil {
		if _, err := stream.New(st.Decoder); err != nil {
			return bad("unknown stream decoder %q (known: %s)", st.Decoder, strings.Join(stream.Names(), ", "))
		}
		if _, err := regexp.Compile(st.PathPattern); err != nil || st.PathPattern == "" {
			return bad("stream pathPattern %q is not a valid regular expression", st.PathPattern)
		}
	}
	for _, h := range s.OldHosts {
		u, err := url.Parse("https://" + h)
		if ch, ok := canonicalHost(u); err != nil || u.Host != h || !ok || ch != h || u.Port() != "" {
			return bad("oldHosts: %q is not a lower-case host name without a port", h)
		}
	}
	for _, a := range s.MessageIDAttrs {
		if !attrName.MatchString(a) {
			return bad("messageIdAttrs: %q is not an attribute name (lower-case letters, digits and -)", a)
		}
	}
	if s.ConversationPath != "" {
		if _, err := regexp.Compile(s.ConversationPath); err != nil {
			return bad("conversationPath %q is not a valid regular expression", s.ConversationPath)
		}
	}
	aliases := map[string]bool{}
	for _, m := range s.Models {
		alias := strings.ToLower(m.Alias)
		if !idPattern.MatchString(strings.ReplaceAll(alias, ".", "-")) {
			return bad("model alias %q must be lower-case letters, digits, ., - or _", m.Alias)
		}
		if aliases[alias] {
			return bad("model alias %q appears twice", m.Alias)
		}
		aliases[alias] = true
		for _, f := range m.Features {
			if !knownFeatures[f] {
				return bad("model %q: unknown feature %q", m.Alias, f)
			}
		}
		if m.Effort != "" {
			if _, err := s.Effort(m.Effort); err != nil {
				return bad("model %q stands for the effort %q, which the site does not list", m.Alias, m.Effort)
			}
		}
	}
	efforts := map[string]bool{}
	for i, e := range s.Efforts {
		if !idPattern.MatchString(e.Name) {
			return bad("effort %q must be lower-case letters, digits, - or _", e.Name)
		}
		if efforts[e.Name] {
			return bad("effort %q appears twice", e.Name)
		}
		efforts[e.Name] = true
		if e.Level != i {
			return bad("effort %q has level %d; the efforts are listed cheapest first, levels 0, 1, 2…", e.Name, e.Level)
		}
	}
	tools := map[string]bool{}
	for _, t := range s.Tools {
		if !idPattern.MatchString(t.Name) {
			return bad("tool %q must be lower-case letters, digits, - or _", t.Name)
		}
		if tools[t.Name] {
			return bad("tool %q appears twice", t.Name)
		}
		tools[t.Name] = true
		if len(t.Labels) == 0 || strings.TrimSpace(t.Labels[0]) == "" {
			return bad("tool %q needs the words of its menu row (labels)", t.Name)
		}
	}
	return nil
}

func isRequired(r Role) bool {
	for _, x := range RequiredRoles() {
		if x == r {
			return true
		}
	}
	return false
}

func joinRoles(rs []Role) string {
	ss := make([]string, len(rs))
	for i, r := range rs {
		ss[i] = string(r)
	}
	return strings.Join(ss, ", ")
}

func allFeatures() []Feature {
	return []Feature{FeatureChat, FeatureModelSelection, FeatureFileUpload, FeatureCodeArtifacts, FeatureStreamCapture}
}

func joinFeatures(fs []Feature) string {
	ss := make([]string, len(fs))
	for i, f := range fs {
		ss[i] = string(f)
	}
	return strings.Join(ss, ", ")
}

// attrName is an HTML attribute name as Ferry accepts one in a site.
var attrName = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
