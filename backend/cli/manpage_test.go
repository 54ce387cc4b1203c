package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The manual page and the completions are made from the command tree: every
// command is in them, the page renders without a warning, and bash
// completes commands, verbs and flags.
func TestManPageAndCompletions(t *testing.T) {
	t.Parallel()
	man := ferry(t, nil, "help", "man")
	if man.code != 0 {
		t.Fatalf("ferry help man: exit %d\n%s", man.code, man.stderr)
	}
	file := filepath.Join(t.TempDir(), "ferry.1")
	if err := os.WriteFile(file, []byte(man.stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "groff", "-man", "-ww", "-z", file).CombinedOutput()
	if err != nil || len(out) != 0 {
		t.Errorf("groff warns about the manual page: %v\n%s", err, out)
	}
	for _, c := range sortedCommands() {
		if !strings.Contains(man.stdout, ".SS ferry "+strings.ReplaceAll(c.name, "-", `\-`)) {
			t.Errorf("the manual page lacks command %s", c.name)
		}
	}
	if !strings.Contains(man.stdout, ".SH EXIT STATUS") || !strings.Contains(man.stdout, "usage_cap") {
		t.Errorf("the manual page lacks the exit codes")
	}

	bash := ferry(t, nil, "completion", "bash")
	script := filepath.Join(t.TempDir(), "ferry.bash")
	if err := os.WriteFile(script, []byte(bash.stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	complete := func(words ...string) string {
		t.Helper()
		line := `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _ferry; printf '%s\n' "${COMPREPLY[@]}"`
		out, err := exec.CommandContext(ctx, "bash", append([]string{"-c", line, "bash", script}, words...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("bash completion of %v: %v\n%s", words, err, out)
		}
		return string(out)
	}
	if got := complete("ferry", "sess"); strings.TrimSpace(got) != "sessions" {
		t.Errorf("ferry sess<TAB> completes to %q, want sessions", got)
	}
	if got := complete("ferry", "sessions", ""); !strings.Contains(got, "list\n") || !strings.Contains(got, "restore\n") {
		t.Errorf("ferry sessions <TAB> offers %q, want its verbs", got)
	}
	if got := complete("ferry", "ask", "--ses"); strings.TrimSpace(got) != "--session" {
		t.Errorf("ferry ask --ses<TAB> completes to %q, want --session", got)
	}
	for _, shell := range []string{"zsh", "fish"} {
		r := ferry(t, nil, "completion", shell)
		for _, c := range sortedCommands() {
			if r.code != 0 || !strings.Contains(r.stdout, c.name) {
				t.Errorf("the %s completion lacks %s (exit %d)", shell, c.name, r.code)
			}
		}
	}
	if r := ferry(t, nil, "completion", "tcsh"); r.code != 2 {
		t.Errorf("ferry completion tcsh: exit %d, want 2", r.code)
	}
}
