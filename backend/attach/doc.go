// Package attach is Ferry's one place for the files a prompt carries: it
// expands what the user named (files, directories, globs, "!PATTERN"
// exclusions) into files, checks them against a site's limits before
// anything touches the browser (count, size, readable, regular), gives two
// files with the same base name distinct visible names (a/util.go →
// a__util.go) and says so in the prompt, and builds the inline bundle
// (text files pasted into the prompt, fenced and line-numbered). The CLI,
// core, the gateway and MCP all use it; the adapters only attach the
// Files it returns.
package attach
