package opener

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Reveal opens Explorer on path's folder with the file selected.
// Explorer's exit status says nothing (it is 1 after a successful
// /select), so only a failure to start it is an error.
func Reveal(path string) error {
	line, err := explorerSelectCmdLine(path)
	if err != nil {
		return err
	}
	exe := filepath.Join(windowsDir(), "explorer.exe")
	cmd := exec.Command(exe)
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: line}
	if err := cmd.Start(); err != nil {
		return errs.Wrap(err, errs.CapabilityMissing, "start Explorer to show %s: %v", path, err).WithEvidence("path", path)
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// Open opens path with the application Windows associates with it
// (ShellExecute "open"), which answers at once whether one took it.
func Open(path string) error {
	verb, _ := windows.UTF16PtrFromString("open")
	file, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "open %s: %v", path, err).WithEvidence("path", path)
	}
	if err := windows.ShellExecute(0, verb, file, nil, nil, windows.SW_SHOWNORMAL); err != nil {
		return errs.Wrap(err, errs.CapabilityMissing, "nothing on this desktop answered to open %s: %v", path, err).
			WithEvidence("path", path).WithHint("choose an app for %s files in Windows Settings → Apps → Default apps", ext(path))
	}
	return nil
}

// ext names path's kind of file as Default apps lists it (".zip",
// ".png"), or "such" when it has no extension.
func ext(path string) string {
	if e := filepath.Ext(path); e != "" {
		return strings.ToLower(e)
	}
	return "such"
}

// windowsDir is %SystemRoot% (C:\Windows).
func windowsDir() string {
	if d, err := windows.GetWindowsDirectory(); err == nil {
		return d
	}
	return `C:\Windows`
}
