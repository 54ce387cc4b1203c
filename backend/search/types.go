package search

import (
	"time"

	"github.com/ferrydesk/ferry/backend/record"
)

// Doc is one run as the index sees it. ID must be non-empty and unique
// within an index.
type Doc struct {
	ID    string
	Site  string
	Model string
	State string
	// Tool is the site's tool the run asked for ("web-search"), "" for none.
	Tool    string
	Created time.Time
	Prompt  string
	Answer  string
	Files   []string // artifact file names, without directories
}

// Query selects and ranks runs. Zero values mean "no constraint"; an empty
// Text lists the runs that pass the filters, newest first.
type Query struct {
	Text  string
	Site  string // exact site id, case-insensitive
	State string // exact state, case-insensitive
	// States, when set, lets a run in any of them through (with State
	// too, when both are set): the few states a user knows each stand
	// for several of the pipeline's.
	States []string
	// Tool keeps the runs that asked for that tool (exact, case-insensitive),
	// or with NoTool those that asked for none; "" keeps every run.
	Tool  string
	From  time.Time // inclusive lower bound on Created
	To    time.Time // exclusive upper bound on Created
	Limit int       // number of hits; 0 means DefaultLimit, at most MaxLimit
}

// Field names a searchable part of a run; Match says where a hit matched
// in one field (File is the index in Doc.Files of the matching name;
// Positions are rune offsets into Doc.Prompt and Hit.Prompt, its opening,
// Doc.Files[File], Doc.Site, Doc.Model, or Hit.Snippet for the answer);
// Hit is one ranked result (its Prompt is the opening WithPromptBound
// keeps). They are the records of package record, which the service shows.
type (
	Field = record.Field
	Match = record.Match
	Hit   = record.Hit
)

// NoTool is the Tool of a Query that keeps the runs which asked for no
// tool.
const NoTool = record.NoTool

// The searchable fields.
const (
	FieldSite   = record.FieldSite
	FieldModel  = record.FieldModel
	FieldFile   = record.FieldFile
	FieldPrompt = record.FieldPrompt
	FieldAnswer = record.FieldAnswer
)

// Results is the answer to a Query.
type Results struct {
	Hits []Hit `json:"hits"`
	// Total is the number of runs that matched, of which Hits are the best.
	// It is exact when every match was shortlisted (Total below twice the
	// limit, and at least 64); above that it may count runs whose only
	// match is letters spread too far, which stage two would have dropped.
	Total int `json:"total"`
}
