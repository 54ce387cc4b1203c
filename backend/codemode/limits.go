package codemode

import (
	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/version"
)

// RetrieveOptions are the download and verifier limits of the settings.
func RetrieveOptions(a config.ArtifactSettings) []artifact.RetrieveOption {
	return []artifact.RetrieveOption{
		artifact.WithMaxDownload(a.MaxZipBytes),
		artifact.WithSave(artifact.WithFerryVersion(version.Version), artifact.WithVerify(VerifyLimits(a)...)),
	}
}

// VerifyLimits are the verifier's caps from the settings.
func VerifyLimits(a config.ArtifactSettings) []artifact.VerifyOption {
	return []artifact.VerifyOption{
		artifact.WithMaxEntries(a.MaxEntries),
		artifact.WithMaxTotalSize(a.MaxTotalUncompressedBytes),
		artifact.WithMaxRatio(int(a.MaxRatio)),
	}
}
