// Package browsertest starts Chromium the ways Ferry's tests need and
// browser.Launch does not give: as a user would, outside Ferry, with
// remote debugging on (StartUser), and on Linux a browser that does not
// share Ferry's files (StartUnshared), as one on another machine, WSL's
// Windows Chrome, or the Linux Chromium of a ferry.exe under Wine. For the
// packages of backend/browser it also runs a test binary against one shared
// browser and a fixture server (Main) and opens a fresh tab per test
// (NewTab).
package browsertest
