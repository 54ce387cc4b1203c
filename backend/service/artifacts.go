package service

// ArtifactSidecarSuffix names an artifact's provenance sidecar (a zip's or
// an image's): the file's path with this appended (the artifact package's
// SidecarSuffix).
const ArtifactSidecarSuffix = ".provenance.json"

// ListArtifactsRequest lists the artifacts library.
type ListArtifactsRequest struct {
	// Path, when set, narrows the list to the file the library lists at
	// that absolute path, judged alone (the other files are not read): an
	// empty list when the library lists none there.
	Path string `json:"path,omitempty"`
}

// Validate accepts every request.
func (ListArtifactsRequest) Validate() error { return nil }

// ArtifactList is the library and the directory it lives in.
type ArtifactList struct {
	Dir   string         `json:"dir"`
	Items []ArtifactItem `json:"items"`
}
