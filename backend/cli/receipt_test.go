package cli

import (
	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/record"
)

// The code receipt is written by code mode for every code run (the CLI's
// and the hub's); the tests read the files `ferry code` writes in these
// names.
type (
	// Receipt is the record `ferry code` writes beside its outputs.
	Receipt = record.CodeReceipt
	// Layers are the four proofs of a run.
	Layers = record.ReceiptLayers
	// Layer is one proof.
	Layer = record.ReceiptLayer
	// StepReceipt is one message of the run.
	StepReceipt = record.StepReceipt
	// ZipReceipt is the outcome of one zip.
	ZipReceipt = record.ZipReceipt
)

// ReceiptKind names the receipt format.
const ReceiptKind = codemode.ReceiptKind

// ReceiptSuffix ends the name of the receipt `ferry code` writes beside its
// outputs.
const ReceiptSuffix = codemode.ReceiptSuffix
