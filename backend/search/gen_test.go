package search

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Realistic generated history for benchmarks: a fixed seed, prompts of
// 80-400 characters of developer text, answers of 200 B to 8 KB, artifact
// names like project-api-v2.zip, 7 sites with their models, varied states.

var (
	genSites  = []string{"chatgpt", "claude", "gemini", "grok", "deepseek", "kimi", "glm"}
	genModels = map[string][]string{
		"chatgpt":  {"gpt-5", "gpt-5-thinking", "o3", "gpt-4o"},
		"claude":   {"claude-opus-4.1", "claude-sonnet-4.5"},
		"gemini":   {"gemini-2.5-pro", "gemini-2.5-flash"},
		"grok":     {"grok-4", "grok-3"},
		"deepseek": {"deepseek-v3", "deepseek-r1"},
		"kimi":     {"kimi-k2"},
		"glm":      {"glm-4.5"},
	}
	genStates   = []string{"done", "done", "done", "done", "done", "done", "failed", "cancelled", "running", "deliverable_missing", "timeout"}
	genProjects = []string{"project", "billing", "auth", "dashboard", "gateway", "inventory", "checkout", "search", "notifier", "scheduler", "crawler", "ledger", "payments", "analytics", "orders", "profile"}
	genParts    = []string{"api", "web", "cli", "worker", "service", "frontend", "backend", "sdk", "docs", "infra", "migrations", "tests"}
	genTech     = []string{"React", "Svelte", "Go", "Rust", "TypeScript", "Python", "PostgreSQL", "Redis", "Kafka", "Docker", "Kubernetes", "Terraform", "GraphQL", "gRPC", "WebSocket", "SQLite", "Next.js", "Django", "FastAPI", "Tailwind"}
	genThings   = []string{"login form", "rate limiter", "retry logic", "connection pool", "cache layer", "error handling", "pagination", "file upload", "session store", "feature flags", "audit log", "search index", "webhook handler", "CSV export", "dark mode", "unit tests", "CI pipeline", "Dockerfile", "schema migration", "config loader"}
	genVerbs    = []string{"Refactor", "Fix", "Write", "Explain", "Optimize", "Review", "Add", "Document", "Debug", "Rewrite", "Design", "Migrate", "Test", "Implement"}
	genWords    = strings.Fields(`the a function handler request response error value context timeout retry
		buffer channel goroutine mutex struct interface method package module import export component state
		props hook effect render query index table column row transaction commit rollback migration schema
		client server token header cookie session cache key hash queue worker job task event stream socket
		file path directory archive zip upload download parse decode encode serialize validate config option
		flag default test assert mock fixture benchmark profile memory allocation latency throughput logging
		metric trace span deploy container image cluster node pod service ingress volume secret network`)
	genCorpus = buildCorpus()
)

// buildCorpus is ~1 MB of answer-like text: prose, lists and code.
func buildCorpus() string {
	r := rand.New(rand.NewPCG(7, 7))
	var b strings.Builder
	for b.Len() < 1<<20 {
		switch r.IntN(5) {
		case 0:
			fmt.Fprintf(&b, "```%s\nfunc %s%s(ctx context.Context) error {\n    if err := %s(); err != nil {\n        return fmt.Errorf(\"%s %s: %%w\", err)\n    }\n    return nil\n}\n```\n",
				strings.ToLower(pick(r, genTech)), strings.ToLower(pick(r, genWords)), capital(pick(r, genWords)),
				pick(r, genWords), pick(r, genWords), pick(r, genWords))
		case 1:
			for i := 0; i < 3; i++ {
				fmt.Fprintf(&b, "- %s the %s with %s.\n", pick(r, genVerbs), pick(r, genThings), pick(r, genTech))
			}
		default:
			n := 8 + r.IntN(14)
			for i := 0; i < n; i++ {
				if i == 0 {
					b.WriteString(pick(r, genVerbs))
				} else if r.IntN(9) == 0 {
					b.WriteString(pick(r, genTech))
				} else {
					b.WriteString(pick(r, genWords))
				}
				b.WriteByte(' ')
			}
			b.WriteString("in the " + pick(r, genThings) + ".\n")
		}
	}
	return b.String()
}

func capital(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func pick(r *rand.Rand, xs []string) string { return xs[r.IntN(len(xs))] }

// genDocs returns n runs, oldest first; answers share the corpus's memory.
func genDocs(n int) []Doc {
	r := rand.New(rand.NewPCG(42, 2026))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	docs := make([]Doc, n)
	for i := range docs {
		site := genSites[r.IntN(len(genSites))]
		d := Doc{
			ID:      fmt.Sprintf("run-%06d", i),
			Site:    site,
			Model:   pick(r, genModels[site]),
			State:   pick(r, genStates),
			Created: base.Add(time.Duration(i)*10*time.Minute + time.Duration(r.IntN(600))*time.Second),
			Prompt:  genPrompt(r),
		}
		size := 200 + r.IntN(7800)
		at := r.IntN(len(genCorpus) - size)
		if sp := strings.IndexByte(genCorpus[at:], ' '); sp >= 0 {
			at += sp + 1
		}
		d.Answer = genCorpus[at : at+size]
		for k := r.IntN(4); k > 0; k-- {
			d.Files = append(d.Files, genFile(r))
		}
		docs[i] = d
	}
	return docs
}

func genPrompt(r *rand.Rand) string {
	var b strings.Builder
	target := 80 + r.IntN(320)
	for b.Len() < target {
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "%s the %s in the %s %s using %s. ", pick(r, genVerbs), pick(r, genThings), pick(r, genProjects), pick(r, genParts), pick(r, genTech))
		case 1:
			fmt.Fprintf(&b, "It fails with %s %s when the %s is empty. ", pick(r, genWords), pick(r, genWords), pick(r, genWords))
		case 2:
			fmt.Fprintf(&b, "Return a zip named %s with the %s and tests. ", genFile(r), pick(r, genThings))
		default:
			fmt.Fprintf(&b, "Keep the %s and the %s %s unchanged. ", pick(r, genWords), pick(r, genTech), pick(r, genWords))
		}
	}
	s := b.String()
	if len(s) > 400 {
		s = s[:400]
	}
	return strings.TrimSpace(s)
}

func genFile(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return fmt.Sprintf("%s-%s-v%d.zip", pick(r, genProjects), pick(r, genParts), 1+r.IntN(4))
	case 1:
		return fmt.Sprintf("%s_%s.md", strings.ReplaceAll(pick(r, genThings), " ", "_"), pick(r, genParts))
	case 2:
		return fmt.Sprintf("%s-%s.tar.gz", pick(r, genProjects), strings.ToLower(pick(r, genTech)))
	default:
		return fmt.Sprintf("report-%s-%02d.pdf", pick(r, genProjects), 1+r.IntN(28))
	}
}
