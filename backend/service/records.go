package service

import "github.com/ferrydesk/ferry/backend/record"

// The records of the pipeline as the Service shows them are the types of
// package record, which the pipeline writes and the store keeps: a record
// is the same Go value and the same JSON whichever implementation answered.
// Their fields, nested records and constants are record's.
type (
	// Run is the record of one run.
	Run = record.Run
	// JournalEntry is one journal line of a run.
	JournalEntry = record.JournalEntry
	// RunEvent is one thing a run reports: a state it entered, the answer
	// grown, a reattach's finding.
	RunEvent = record.Event
	// Hit is the search hit that found a run.
	Hit = record.Hit
	// Listed is one run of a listing with the search hit that found it.
	Listed = record.Listed
	// Attachment is one file sent with a prompt.
	Attachment = record.Attachment
	// CodeReceipt is the record a code run writes beside its outputs (what
	// `ferry code --json` prints).
	CodeReceipt = record.CodeReceipt
	// RetrieveReceipt is the record a retrieval writes beside its outputs
	// (what `ferry retrieve --json` prints).
	RetrieveReceipt = record.RetrieveReceipt
	// TabState is one tab of the owner's browser with what a run would
	// meet in it.
	TabState = record.TabState
	// ArtifactItem is one file (a zip or an image) of the artifacts
	// library with its verdict checked against the bytes on disk, and the
	// run it came from.
	ArtifactItem = record.ArtifactItem
)
