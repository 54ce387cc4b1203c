package search

import "time"

// Doc is one run as the index sees it. ID must be non-empty and unique
// within an index.
type Doc struct {
	ID      string
	Site    string
	Model   string
	State   string
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
	From   time.Time // inclusive lower bound on Created
	To     time.Time // exclusive upper bound on Created
	Limit  int       // number of hits; 0 means DefaultLimit, at most MaxLimit
}

// Field names a searchable part of a run.
type Field string

// The searchable fields.
const (
	FieldSite   Field = "site"
	FieldModel  Field = "model"
	FieldFile   Field = "file"
	FieldPrompt Field = "prompt"
	FieldAnswer Field = "answer"
)

// Match says where a hit matched in one field.
type Match struct {
	Field Field `json:"field"`
	// File is the index in Doc.Files of the matching name (FieldFile only).
	File int `json:"file,omitempty"`
	// Positions are rune offsets, ascending, of the matched characters: into
	// Doc.Prompt (and Hit.Prompt, its opening), Doc.Files[File], Doc.Site,
	// Doc.Model, or Hit.Snippet for the answer.
	Positions []int `json:"positions"`
}

// Hit is one ranked result.
type Hit struct {
	ID      string    `json:"id"`
	Site    string    `json:"site"`
	Model   string    `json:"model"`
	State   string    `json:"state"`
	Created time.Time `json:"created"`
	Files   []string  `json:"files,omitempty"`
	// Prompt is the opening of the run's prompt that the index keeps (see
	// WithPromptBound), in its original case: enough to show a result with
	// its prompt matches highlighted without reading the run itself.
	Prompt string `json:"prompt,omitempty"`
	Score  int    `json:"score"`
	// Matches lists the fields that matched, in the order site, model, files
	// (by index), prompt, answer. Empty when the query had no text.
	Matches []Match `json:"matches,omitempty"`
	// Snippet is a short excerpt of the answer around its first match, or
	// its opening when the answer did not match; "…" marks cut ends.
	Snippet string `json:"snippet"`
}

// Results is the answer to a Query.
type Results struct {
	Hits []Hit `json:"hits"`
	// Total is the number of runs that matched, of which Hits are the best.
	// It is exact when every match was shortlisted (Total below twice the
	// limit, and at least 64); above that it may count runs whose only
	// match is letters spread too far, which stage two would have dropped.
	Total int `json:"total"`
}
