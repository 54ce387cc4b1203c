package autostart

import (
	"errors"

	"golang.org/x/sys/windows/registry"

	"github.com/ferrydesk/ferry/backend/errs"
)

// System is the user's Run key.
func System() LoginStart { return runKey{path: runKeyPath} }

// runKey is LoginStart through a value in HKEY_CURRENT_USER\path (the Run
// key; a test names a key of its own).
type runKey struct{ path string }

// Enabled reports whether the key holds Ferry's value.
func (k runKey) Enabled() (bool, error) {
	key, err := registry.OpenKey(registry.CURRENT_USER, k.path, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, runKeyError(err, "read", k.path)
	}
	defer key.Close()
	_, _, err = key.GetStringValue(runKeyValue)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, runKeyError(err, "read", k.path)
	}
	return true, nil
}

// Set writes the value that starts exe hidden (on) or deletes it (off).
func (k runKey) Set(exe string, on bool) error {
	if !on {
		key, err := registry.OpenKey(registry.CURRENT_USER, k.path, registry.SET_VALUE)
		if errors.Is(err, registry.ErrNotExist) {
			return nil
		}
		if err != nil {
			return runKeyError(err, "open", k.path)
		}
		defer key.Close()
		if err := key.DeleteValue(runKeyValue); err != nil && !errors.Is(err, registry.ErrNotExist) {
			return runKeyError(err, "remove Ferry from", k.path)
		}
		return nil
	}
	cmd, err := runKeyCommand(exe)
	if err != nil {
		return err
	}
	key, _, err := registry.CreateKey(registry.CURRENT_USER, k.path, registry.SET_VALUE)
	if err != nil {
		return runKeyError(err, "open", k.path)
	}
	defer key.Close()
	if err := key.SetStringValue(runKeyValue, cmd); err != nil {
		return runKeyError(err, "write Ferry to", k.path)
	}
	return nil
}

func runKeyError(err error, verb, path string) error {
	return errs.Wrap(err, errs.EnvironmentNotReady, "%s the registry key HKEY_CURRENT_USER\\%s: %v", verb, path, err).
		WithEvidence("key", `HKEY_CURRENT_USER\`+path).
		WithHint("check that your account may change its own startup programs (Task Manager → Startup apps), or add Ferry there yourself")
}

var _ LoginStart = runKey{}
