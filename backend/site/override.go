package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Override is one site entry from the user's settings. For a built-in site
// every field given replaces the built-in's field; a selector map replaces
// the lists of the roles it names and keeps the others. An entry whose id
// (or, without an id, whose name) matches no site defines a custom site,
// which must then be complete.
type Override struct {
	ID            string            `json:"id,omitempty"`
	Name          string            `json:"name,omitempty"`
	Address       string            `json:"address,omitempty"`
	NewChat       string            `json:"newChat,omitempty"`
	Account       string            `json:"account,omitempty"`
	LoginHosts    []string          `json:"loginHosts,omitempty"`
	LoginPaths    []string          `json:"loginPaths,omitempty"`
	Selectors     map[Role][]string `json:"selectors,omitempty"`
	Texts         map[Role][]string `json:"texts,omitempty"`
	BusyTexts     []string          `json:"busyTexts,omitempty"`
	Typing        []Typing          `json:"typing,omitempty"`
	NoExtraInput  *bool             `json:"noExtraInput,omitempty"`
	OneRunAtATime *bool             `json:"oneRunAtATime,omitempty"`
	Send          SendMethod        `json:"send,omitempty"`
	Stream        *StreamOverride   `json:"stream,omitempty"`
	Features      []Feature         `json:"features,omitempty"`
	Models        []Model           `json:"models,omitempty"`
	// Uploads replaces the site's upload definition as a whole.
	Uploads *Uploads `json:"uploads,omitempty"`
}

// StreamOverride changes a site's stream capture field by field; Disabled
// removes it (the adapter then reads the answer from the DOM), which is the
// quick fix when a site changes its stream format.
type StreamOverride struct {
	Method      string `json:"method,omitempty"`
	PathPattern string `json:"pathPattern,omitempty"`
	Decoder     string `json:"decoder,omitempty"`
	Optional    *bool  `json:"optional,omitempty"`
	Disabled    bool   `json:"disabled,omitempty"`
}

// ParseOverrides reads the "sites" value of the settings: a JSON array of
// Override objects. Unknown fields are refused (a typo would otherwise be
// silently ignored) with an errs.ConfigInvalid envelope naming the problem.
func ParseOverrides(raw []byte) ([]Override, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var out []Override
	if err := dec.Decode(&out); err != nil {
		return nil, errs.Wrap(err, errs.ConfigInvalid, "read site overrides: %v", err).
			WithHint("the \"sites\" setting must be a list of objects with fields id, name, address, selectors, …")
	}
	return out, nil
}

// Merge returns a new registry with the overrides applied in order. The
// receiver is not changed. Every site touched is validated afterwards: an
// override that empties a required role, or a custom site that lacks one,
// fails with errs.SiteIncomplete; a wrong value with errs.ConfigInvalid.
func (r *Registry) Merge(overrides ...Override) (*Registry, error) {
	out := &Registry{byID: make(map[string]Site, len(r.byID)+len(overrides))}
	for id, s := range r.byID {
		out.byID[id] = s.clone()
	}
	for i, o := range overrides {
		id := strings.ToLower(strings.TrimSpace(o.ID))
		target, found := out.byID[id]
		if id == "" {
			target, found = out.byName(o.Name)
			if !found {
				return nil, errs.New(errs.ConfigInvalid, "site override #%d has no id and its name %q matches no site", i+1, o.Name).
					WithHint("give the entry an id (to define a custom site) or the name of an existing site")
			}
			id = target.ID
		}
		if !found {
			if other, clash := out.byName(o.Name); clash && o.Name != "" {
				return nil, errs.New(errs.ConfigInvalid, "custom site %q uses the name %q of site %q", id, o.Name, other.ID).
					WithHint("give the custom site its own name, or use id %q to change that site", other.ID)
			}
			target = Site{ID: id, Typing: defaultTyping(), Send: SendClick}
		}
		merged := apply(target, o)
		if !found && len(o.Features) == 0 {
			merged.Features = deriveFeatures(merged)
		}
		if err := validate(merged); err != nil {
			return nil, fmt.Errorf("apply site override #%d (%s): %w", i+1, id, err)
		}
		out.byID[id] = merged
	}
	return out, nil
}

func (r *Registry) byName(name string) (Site, bool) {
	name = strings.TrimSpace(name)
	if name == "" {
		return Site{}, false
	}
	for _, id := range r.IDs() {
		if strings.EqualFold(r.byID[id].Name, name) {
			return r.byID[id], true
		}
	}
	return Site{}, false
}

func defaultTyping() []Typing {
	return []Typing{TypingInsertText, TypingExecCommand, TypingNativeSetter, TypingInputEvent}
}

// deriveFeatures gives a custom site the features its definition supports.
func deriveFeatures(s Site) []Feature {
	fs := []Feature{FeatureChat}
	if len(s.Selectors[RoleModelPicker]) > 0 && len(s.Selectors[RoleModelItem]) > 0 && len(s.Models) > 0 {
		fs = append(fs, FeatureModelSelection)
	}
	if len(s.Selectors[RoleFileInput]) > 0 {
		fs = append(fs, FeatureFileUpload)
	}
	if s.Stream != nil && s.Stream.Decoder != "" {
		fs = append(fs, FeatureStreamCapture)
	}
	return fs
}

// apply merges o into a copy of s, field by field.
func apply(s Site, o Override) Site {
	s = s.clone()
	setStr(&s.Name, o.Name)
	setStr(&s.Address, o.Address)
	setStr(&s.NewChat, o.NewChat)
	setStr(&s.Account, o.Account)
	if o.LoginHosts != nil {
		s.LoginHosts = append([]string(nil), o.LoginHosts...)
	}
	if o.LoginPaths != nil {
		s.LoginPaths = append([]string(nil), o.LoginPaths...)
	}
	if o.BusyTexts != nil {
		s.BusyTexts = append([]string(nil), o.BusyTexts...)
	}
	s.Selectors = mergeRoles(s.Selectors, o.Selectors)
	s.Texts = mergeRoles(s.Texts, o.Texts)
	if o.Typing != nil {
		s.Typing = append([]Typing(nil), o.Typing...)
	}
	if o.NoExtraInput != nil {
		s.NoExtraInput = *o.NoExtraInput
	}
	if o.OneRunAtATime != nil {
		s.OneRunAtATime = *o.OneRunAtATime
	}
	if o.Send != "" {
		s.Send = o.Send
	}
	if so := o.Stream; so != nil {
		if so.Disabled {
			s.Stream = nil
			s.Features = without(s.Features, FeatureStreamCapture)
		} else {
			st := StreamCapture{}
			if s.Stream != nil {
				st = *s.Stream
			}
			setStr(&st.Method, strings.ToUpper(so.Method))
			setStr(&st.PathPattern, so.PathPattern)
			setStr(&st.Decoder, so.Decoder)
			if so.Optional != nil {
				st.Optional = *so.Optional
			}
			s.Stream = &st
		}
	}
	if o.Features != nil {
		s.Features = append([]Feature(nil), o.Features...)
	}
	if o.Models != nil {
		s.Models = Site{Models: o.Models}.clone().Models
	}
	if o.Uploads != nil {
		s.Uploads = o.Uploads.clone()
	}
	return s
}

func setStr(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

// mergeRoles replaces the lists of the roles named in over; an empty list
// removes the role (validation then reports a required role as missing).
func mergeRoles(base, over map[Role][]string) map[Role][]string {
	if over == nil {
		return base
	}
	out := cloneRoles(base)
	if out == nil {
		out = map[Role][]string{}
	}
	for r, list := range over {
		var clean []string
		for _, sel := range list {
			if sel = strings.TrimSpace(sel); sel != "" {
				clean = append(clean, sel)
			}
		}
		if len(clean) == 0 {
			delete(out, r)
			continue
		}
		out[r] = clean
	}
	return out
}

func without(fs []Feature, f Feature) []Feature {
	var out []Feature
	for _, x := range fs {
		if x != f {
			out = append(out, x)
		}
	}
	return out
}
