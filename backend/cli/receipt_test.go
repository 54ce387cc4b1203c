package cli

import (
	"github.com/ferrydesk/ferry/backend/core"
)

// The code receipt is written by code mode for every code run (the CLI's
// and the hub's); the tests read the files `ferry code` writes in these
// names.
type (
	// Receipt is the record `ferry code` writes beside its outputs.
	Receipt = core.CodeReceipt
	// Layers are the four proofs of a run.
	Layers = core.ReceiptLayers
	// Layer is one proof.
	Layer = core.ReceiptLayer
	// StepReceipt is one message of the run.
	StepReceipt = core.StepReceipt
	// ZipReceipt is the outcome of one zip.
	ZipReceipt = core.ZipReceipt
)

// ReceiptKind names the receipt format.
const ReceiptKind = core.ReceiptKind

// ReceiptSuffix ends the name of the receipt `ferry code` writes beside its
// outputs.
const ReceiptSuffix = core.ReceiptSuffix
