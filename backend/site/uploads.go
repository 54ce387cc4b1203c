package site

import "errors"

// UploadMethod is how a site takes files.
type UploadMethod string

// The upload methods.
const (
	// UploadFileInput sets the files on the site's <input type=file> (its
	// file_input selectors) over CDP, as a file picker would.
	UploadFileInput UploadMethod = "file_input"
	// UploadDrop drops the files on the site's drop target with a trusted
	// CDP drag, for sites that have no file input.
	UploadDrop UploadMethod = "drop"
)

// Uploads is how a site takes files with a prompt and what it takes in one
// message. Ferry checks the limits before anything is attached, and sends
// nothing until every file shows in the composer by name and ready.
type Uploads struct {
	Method UploadMethod `json:"method"`
	// MaxFiles and MaxFileBytes are the site's limits per message and per
	// file (0: none known).
	MaxFiles     int   `json:"maxFiles,omitempty"`
	MaxFileBytes int64 `json:"maxFileBytes,omitempty"`
	// MaxPromptBytes bounds a prompt with inlined files (0: none known).
	MaxPromptBytes int `json:"maxPromptBytes,omitempty"`
	// DropTarget lists the selectors files are dropped on (UploadDrop).
	DropTarget []string `json:"dropTarget,omitempty"`
	// Tile lists the selectors of one attachment tile in the composer;
	// NameAttr is the attribute that holds its file name in full ("": its
	// text), since visible labels are shortened.
	Tile     []string `json:"tile"`
	NameAttr string   `json:"nameAttr,omitempty"`
	// Pending lists the selectors, inside a tile, of a sign that its file
	// is still uploading or being processed.
	Pending []string `json:"pending,omitempty"`
	// Refused lists the selectors of a refusal the site shows (inside a
	// tile or anywhere on the page); its text is the site's words.
	Refused []string `json:"refused,omitempty"`
	// RenamesRepeats says the site renames a file whose name its account's
	// library already holds, "stem(N).ext" for "stem.ext" (ChatGPT): a new
	// tile of that form, absent before the upload, is the file's own.
	RenamesRepeats bool `json:"renamesRepeats,omitempty"`
}

func (u *Uploads) clone() *Uploads {
	if u == nil {
		return nil
	}
	c := *u
	c.DropTarget = append([]string(nil), u.DropTarget...)
	c.Tile = append([]string(nil), u.Tile...)
	c.Pending = append([]string(nil), u.Pending...)
	c.Refused = append([]string(nil), u.Refused...)
	return &c
}

// validateUploads checks an upload definition: a known method, a tile to
// confirm each file by, a drop target for a drop, no negative limit.
func validateUploads(u *Uploads) error {
	if u == nil {
		return nil
	}
	switch {
	case u.Method != UploadFileInput && u.Method != UploadDrop:
		return errors.New(`uploads.method must be "file_input" or "drop"`)
	case len(u.Tile) == 0:
		return errors.New("uploads.tile needs a selector: every file is confirmed by its tile")
	case u.Method == UploadDrop && len(u.DropTarget) == 0:
		return errors.New("uploads.dropTarget needs a selector for the drop method")
	case u.MaxFiles < 0 || u.MaxFileBytes < 0 || u.MaxPromptBytes < 0:
		return errors.New("uploads limits cannot be negative")
	}
	return nil
}
