package service

// ArtifactSidecarSuffix names a zip's provenance sidecar: the zip's path
// with this appended (the artifact package's SidecarSuffix).
const ArtifactSidecarSuffix = ".provenance.json"

// ListArtifactsRequest lists the artifacts library.
type ListArtifactsRequest struct{}

// Validate accepts every request.
func (ListArtifactsRequest) Validate() error { return nil }

// ArtifactList is the library and the directory it lives in.
type ArtifactList struct {
	Dir   string         `json:"dir"`
	Items []ArtifactItem `json:"items"`
}
