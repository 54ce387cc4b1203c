package apptest

import (
	"io"
	"log/slog"
)

// QuietLog is a logger that writes nowhere.
func QuietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
