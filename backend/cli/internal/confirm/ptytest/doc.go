// Package ptytest opens a pseudo-terminal for tests (Linux): the end a
// test types into and the terminal a process under test reads, so that
// what a command asks a person can be answered as a person would.
package ptytest
