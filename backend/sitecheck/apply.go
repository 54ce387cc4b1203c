package sitecheck

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// Apply adds override, one "sites" settings entry such as a Candidate's,
// to the entries of the "sites" setting: into the entry of the same site
// id (its selector roles and stream fields one by one, any other field
// replaced), or appended when there is none. The result is not validated
// against the registry (the settings check does that). Errors:
// errs.ConfigInvalid for an override that is not a site entry with an id,
// or an entry of sites that is not an object.
func Apply(sites []json.RawMessage, override string) ([]json.RawMessage, error) {
	if _, err := site.ParseOverrides([]byte("[" + override + "]")); err != nil {
		return nil, err
	}
	var add map[string]json.RawMessage
	if err := json.Unmarshal([]byte(override), &add); err != nil {
		return nil, errs.Wrap(err, errs.ConfigInvalid, "read the override: %v", err)
	}
	id := idOf(add)
	if id == "" {
		return nil, errs.New(errs.ConfigInvalid, "the override names no site id")
	}
	out := make([]json.RawMessage, 0, len(sites)+1)
	merged := false
	for i, raw := range sites {
		var have map[string]json.RawMessage
		if err := json.Unmarshal(raw, &have); err != nil {
			return nil, errs.Wrap(err, errs.ConfigInvalid, "sites entry %d is not an object: %v", i+1, err)
		}
		if merged || idOf(have) != id {
			out = append(out, raw)
			continue
		}
		for k, v := range add {
			if k == "id" {
				continue
			}
			if k == "selectors" || k == "texts" || k == "stream" {
				v = mergeObject(have[k], v)
			}
			have[k] = v
		}
		b, err := json.Marshal(have)
		if err != nil {
			return nil, errs.Wrap(err, errs.Internal, "encode sites entry: %v", err)
		}
		out, merged = append(out, b), true
	}
	if !merged {
		out = append(out, json.RawMessage(bytes.TrimSpace([]byte(override))))
	}
	return out, nil
}

func idOf(m map[string]json.RawMessage) string {
	var id string
	_ = json.Unmarshal(m["id"], &id)
	return strings.ToLower(strings.TrimSpace(id))
}

// mergeObject sets add's fields over base's; a base that is not an object
// is replaced.
func mergeObject(base, add json.RawMessage) json.RawMessage {
	var b, a map[string]json.RawMessage
	if json.Unmarshal(base, &b) != nil || b == nil || json.Unmarshal(add, &a) != nil {
		return add
	}
	for k, v := range a {
		b[k] = v
	}
	out, err := json.Marshal(b)
	if err != nil {
		return add
	}
	return out
}
