package record

import "time"

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

// Match says where a search hit matched in one field.
type Match struct {
	Field Field `json:"field"`
	// File is the index in the run's file names of the matching name
	// (FieldFile only).
	File int `json:"file,omitempty"`
	// Positions are rune offsets, ascending, of the matched characters: into
	// the prompt (and Hit.Prompt, its opening), the file name, the site, the
	// model, or Hit.Snippet for the answer.
	Positions []int `json:"positions"`
}

// NoTool is what a filter of the runs by tool names the runs that asked
// for no tool by (every run written before runs could ask for one).
const NoTool = "none"

// Hit is one ranked result of a search of the runs.
type Hit struct {
	ID    string `json:"id"`
	Site  string `json:"site"`
	Model string `json:"model"`
	State string `json:"state"`
	// Tool is the site's tool the run asked for ("web-search"); "" for a
	// run that asked for none (NoTool in a filter).
	Tool    string    `json:"tool,omitempty"`
	Created time.Time `json:"created"`
	Files   []string  `json:"files,omitempty"`
	// Prompt is the opening of the run's prompt that the index keeps, in
	// its original case: enough to show a result with its prompt matches
	// highlighted without reading the run itself.
	Prompt string `json:"prompt,omitempty"`
	Score  int    `json:"score"`
	// Matches lists the fields that matched, in the order site, model, files
	// (by index), prompt, answer. Empty when the query had no text.
	Matches []Match `json:"matches,omitempty"`
	// Snippet is a short excerpt of the answer around its first match, or
	// its opening when the answer did not match; "…" marks cut ends.
	Snippet string `json:"snippet"`
}
