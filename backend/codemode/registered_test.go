package codemode_test

// The built-in sites register themselves from their own folders: linking
// them in fills the registries this package's tests read.
import _ "github.com/ferrydesk/ferry/backend/provider/all"
