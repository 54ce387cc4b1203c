package artifact

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// saveChildEnv makes the test binary play a Ferry process saving the zip it
// reads on stdin into the directory the variable names, so that a test can
// SIGKILL it in the middle of the write or let it finish.
const saveChildEnv = "FERRY_ARTIFACT_SAVE_CHILD_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(saveChildEnv); dir != "" {
		s, err := Save(context.Background(), dir, "project.zip", os.Stdin, Provenance{Site: "chatgpt"})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(s.Path)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
