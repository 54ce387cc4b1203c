package cmddoc

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// Shell completions are made from the command tree: the commands, each
// command's verbs (the alternatives its usage starts with, e.g. sessions
// list|show ID|…) and its flags, so that they cannot drift from the CLI.

// completed is one command as the completions know it.
type completed struct {
	name  string
	short string
	verbs []string
	flags []string // without the leading dashes, global ones included
}

var verbRe = regexp.MustCompile(`^[a-z][a-z-]*$`)

// completionTree lists the commands cmds (sorted by name) with their verbs
// and flags, sorted; help's verbs are the commands and helpTopics.
func completionTree(cmds []Command, helpTopics []string) []completed {
	var out []completed
	for _, c := range cmds {
		cc := completed{name: c.Name, short: c.Short, flags: []string{"data-dir", "json"}}
		for _, f := range c.Flags {
			cc.flags = append(cc.flags, f.Name)
		}
		sort.Strings(cc.flags)
		if c.Name == "help" {
			for _, o := range cmds {
				cc.verbs = append(cc.verbs, o.Name)
			}
			cc.verbs = append(cc.verbs, helpTopics...)
			sort.Strings(cc.verbs)
		} else if a := strings.TrimSpace(c.Args); a != "" && a[0] >= 'a' && a[0] <= 'z' && strings.Contains(a, "|") {
			for _, alt := range strings.Split(a, "|") {
				if w := strings.Fields(alt); len(w) > 0 && verbRe.MatchString(w[0]) {
					cc.verbs = append(cc.verbs, w[0])
				}
			}
		}
		out = append(out, cc)
	}
	return out
}

// Bash writes the bash completion script of the commands cmds (sorted by
// name) and the help topics that are not commands.
func Bash(w io.Writer, cmds []Command, helpTopics []string) error {
	tree := completionTree(cmds, helpTopics)
	var b strings.Builder
	b.WriteString("# bash completion for ferry (made by `ferry completion bash`)\n_ferry() {\n")
	b.WriteString("  local cur cmd i\n  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n  cmd=\"\"\n")
	b.WriteString("  for ((i = 1; i < COMP_CWORD; i++)); do\n    case \"${COMP_WORDS[i]}\" in -*) ;; *) cmd=\"${COMP_WORDS[i]}\"; break ;; esac\n  done\n")
	var names []string
	for _, c := range tree {
		names = append(names, c.name)
	}
	fmt.Fprintf(&b, "  if [ -z \"$cmd\" ]; then\n    if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \"--data-dir --json\" -- \"$cur\")); else COMPREPLY=($(compgen -W %q -- \"$cur\")); fi\n    return\n  fi\n", strings.Join(names, " "))
	b.WriteString("  case \"$cmd\" in\n")
	for _, c := range tree {
		words := append([]string{}, dashed(c.flags)...)
		fmt.Fprintf(&b, "    %s)\n      if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W %q -- \"$cur\"))", c.name, strings.Join(words, " "))
		if len(c.verbs) > 0 {
			fmt.Fprintf(&b, "\n      elif [ \"${COMP_WORDS[COMP_CWORD-1]}\" = %q ]; then COMPREPLY=($(compgen -W %q -- \"$cur\"))", c.name, strings.Join(c.verbs, " "))
		}
		b.WriteString("\n      else COMPREPLY=($(compgen -f -- \"$cur\")); fi ;;\n")
	}
	b.WriteString("  esac\n}\ncomplete -F _ferry ferry\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Zsh writes the zsh completion script of the commands cmds (sorted by
// name) and the help topics that are not commands.
func Zsh(w io.Writer, cmds []Command, helpTopics []string) error {
	tree := completionTree(cmds, helpTopics)
	var b strings.Builder
	b.WriteString("#compdef ferry\n# zsh completion for ferry (made by `ferry completion zsh`)\n_ferry() {\n")
	b.WriteString("  local -a commands\n  commands=(\n")
	for _, c := range tree {
		fmt.Fprintf(&b, "    %s\n", zshQuote(c.name+":"+c.short))
	}
	b.WriteString("  )\n  local cmd i\n  for ((i = 2; i < CURRENT; i++)); do\n    [[ ${words[i]} != -* ]] && { cmd=${words[i]}; break; }\n  done\n")
	b.WriteString("  if [[ -z $cmd ]]; then\n    if [[ $PREFIX == -* ]]; then compadd -- --data-dir --json; else _describe command commands; fi\n    return\n  fi\n")
	b.WriteString("  case $cmd in\n")
	for _, c := range tree {
		fmt.Fprintf(&b, "    %s)\n      if [[ $PREFIX == -* ]]; then compadd -- %s", c.name, strings.Join(dashed(c.flags), " "))
		if len(c.verbs) > 0 {
			fmt.Fprintf(&b, "\n      elif [[ ${words[CURRENT-1]} == %s ]]; then compadd -- %s", c.name, strings.Join(c.verbs, " "))
		}
		b.WriteString("\n      else _files; fi ;;\n")
	}
	b.WriteString("  esac\n}\n_ferry \"$@\"\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Fish writes the fish completion script of the commands cmds (sorted by
// name) and the help topics that are not commands.
func Fish(w io.Writer, cmds []Command, helpTopics []string) error {
	tree := completionTree(cmds, helpTopics)
	var b strings.Builder
	b.WriteString("# fish completion for ferry (made by `ferry completion fish`)\n")
	var names []string
	for _, c := range tree {
		names = append(names, c.name)
	}
	b.WriteString("complete -c ferry -l data-dir -r -d 'use this data directory'\ncomplete -c ferry -l json -d 'print machine-readable JSON'\n")
	for _, c := range tree {
		fmt.Fprintf(&b, "complete -c ferry -f -n '__fish_use_subcommand' -a %s -d %s\n", c.name, fishQuote(c.short))
		for _, v := range c.verbs {
			fmt.Fprintf(&b, "complete -c ferry -f -n '__fish_seen_subcommand_from %s; and not __fish_seen_subcommand_from %s' -a %s\n", c.name, strings.Join(c.verbs, " "), v)
		}
		for _, f := range c.flags {
			if f == "data-dir" || f == "json" {
				continue
			}
			fmt.Fprintf(&b, "complete -c ferry -n '__fish_seen_subcommand_from %s' -l %s\n", c.name, f)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func dashed(flags []string) []string {
	out := make([]string, len(flags))
	for i, f := range flags {
		out[i] = "--" + f
	}
	return out
}

// zshQuote quotes s for a zsh array element (single quotes; a colon in
// the description is escaped for _describe).
func zshQuote(s string) string {
	name, desc, _ := strings.Cut(s, ":")
	desc = strings.ReplaceAll(desc, ":", `\:`)
	return "'" + strings.ReplaceAll(name+":"+desc, "'", `'\''`) + "'"
}

// fishQuote quotes s in single quotes for fish.
func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
