package sim

// The ids of the built-in sites, for the tests and tools that address them
// by name. The simulator answers for a site only once its vendor package
// (provider/<vendor>, linked in by provider/all) registered it.
const (
	ChatGPT  = "chatgpt"
	Gemini   = "gemini"
	AIStudio = "aistudio"
	Grok     = "grok"
	Claude   = "claude"
	Kimi     = "kimi"
	DeepSeek = "deepseek"
)
