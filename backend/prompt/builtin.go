package prompt

// builtinTemplates are the user-level templates every Ferry has: starting
// points with {{variables}} that cannot be deleted or overwritten (a user
// saves an edited copy under another name).
var builtinTemplates = []Template{
	{
		Name:        "build-project",
		Description: "a new project built in the sandbox from a short brief",
		Body: "Build {{project}}: {{requirements}}\n\n" +
			"Use {{language}}. Include a README with how to run it, and tests that prove the main behaviour.",
		Vars: []Var{{Name: "project", Required: true}, {Name: "requirements", Required: true}, {Name: "language", Required: true}},
	},
	{
		Name:        "fix-bug",
		Description: "a bug fix with a reproduction first",
		Body: "Fix this bug in {{component}}: {{symptom}}\n\n" +
			"First write a failing test that reproduces it, then the smallest change that makes it pass.",
		Vars: []Var{{Name: "component", Required: true}, {Name: "symptom", Required: true}},
	},
	{
		Name:        "review",
		Description: "a review of a change for correctness and risk",
		Body: "Review this change for correctness, security and missing tests. " +
			"List concrete problems with the line they are on, most severe first.\n\n{{change}}",
		Vars: []Var{{Name: "change", Required: true}},
	},
}

// BuiltinTemplates returns copies of the built-in user-level templates,
// sorted by name. They are valid (a test proves it).
func BuiltinTemplates() []Template {
	out := make([]Template, 0, len(builtinTemplates))
	for _, t := range builtinTemplates {
		out = append(out, clone(t))
	}
	return out
}

// BuiltinTemplate returns the built-in template called name, and whether
// there is one.
func BuiltinTemplate(name string) (Template, bool) {
	for _, t := range builtinTemplates {
		if t.Name == name {
			return clone(t), true
		}
	}
	return Template{}, false
}
