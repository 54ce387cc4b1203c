// Package confirm asks the person at the terminal before a command does
// what it cannot take back (`ferry projects add-source` uploading files to
// a project): whether the input is a terminal someone answers at
// (Terminal), and the yes-or-no question (Ask), whose default is no.
package confirm

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// Terminal reports whether r is a terminal (on Windows a console): a
// pipe, a file, /dev/null or any reader that is not an *os.File is not,
// and nobody could answer a question there.
func Terminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && terminal(f)
}

// Ask writes question to w and reads one line of r: true for "y" or "yes"
// in any case, false for anything else, an empty line or the end of the
// input. Errors: writing w or reading r.
func Ask(r io.Reader, w io.Writer, question string) (bool, error) {
	if _, err := fmt.Fprint(w, question); err != nil {
		return false, fmt.Errorf("ask: %w", err)
	}
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && err != io.EOF {
		return false, fmt.Errorf("read the answer: %w", err)
	}
	if err == io.EOF {
		fmt.Fprintln(w)
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}
