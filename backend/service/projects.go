package service

// ListProjectsRequest lists the account's projects on Site ("" is
// chatgpt), as its page lists them, in the browser Browser names (nil: the
// implementation's).
type ListProjectsRequest struct {
	Site    string       `json:"site,omitempty"`
	Browser *BrowserSpec `json:"browser,omitempty"`
}

// Validate checks the request (anything goes: the site is checked when
// the registry is at hand).
func (r ListProjectsRequest) Validate() error { return nil }

// Project is one of the account's projects on a site: what `ferry ask
// --project` takes (its name or its address).
type Project struct {
	Name    string `json:"name"`
	Address string `json:"address"`
}
