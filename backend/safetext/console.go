package safetext

import (
	"io"
	"os"
)

// Escapes reports whether w is a terminal that interprets ANSI escape
// sequences, so that Ferry may draw with them (the "\r\x1b[K" that redraws
// a progress line). It is false for a pipe, a file or any writer that is not
// an *os.File. On Windows a console interprets them only in virtual-terminal
// mode: Escapes turns that mode on and is false when the console refuses it
// (consoles before Windows 10), so that no escape is printed raw. Text from
// sites and agents is made safe by Line and Block whatever Escapes says.
func Escapes(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	return enableEscapes(f)
}
