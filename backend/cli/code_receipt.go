package cli

import (
	"github.com/ferrydesk/ferry/backend/core"
)

// The code receipt lives in package core, which writes it for every code
// run (the CLI's and the hub's); these names keep the CLI's vocabulary.
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

// writeReceipt saves a receipt atomically (see core.WriteReceipt).
func writeReceipt(path string, receipt any, runErr error) (warning string, err error) {
	return core.WriteReceipt(path, receipt, runErr)
}
