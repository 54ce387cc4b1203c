# Ferry's build. `make run` and `make test` do all set-up themselves on a fresh
# Debian/Ubuntu machine: system packages (scripts/setup-system.sh), npm
# packages, the frontend, Go modules and both binaries.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
GO ?= go
# Builds name files by module path, not by where the clone is: a fresh clone
# then finds in Go's build cache what another clone of the same code built
# (the directory is part of a build's cache key otherwise). Exported, so the
# builds tests run themselves share it.
export GOFLAGS := $(strip $(shell $(GO) env GOFLAGS 2>/dev/null) -trimpath)
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
# Once per make: a commit landing mid-build must not give the binaries and
# the packages two versions.
VERSION := $(VERSION)
LDFLAGS := -X github.com/ferrydesk/ferry/backend/version.Version=$(VERSION)
DESKTOP_TAGS := desktop,production,webkit2_41
WINE_BIN := build/bin/wine
# Each lane of make test, and each step of the desktop lane, looks for a free
# X display from a number of its own (XVFB_FROM), so none takes the number of
# a display another has just closed while that server may still be going away
# (the package test's window once failed to init GTK on the number the Windows
# tests had just left).
XVFB_FROM ?= 99
XVFB = xvfb-run -a -n $(XVFB_FROM) -s "-screen 0 1280x800x24" dbus-run-session --

.PHONY: run test setup system frontend mcpclient build cli app vet tidy test-go test-frontend test-gui test-package test-windows package bindings clean demo \
  go-tests desktop-tests frontend-tests gui-tests app-gui-tests headful-tests windows-tests package-tests

## run: all set-up, then the desktop app
run:
	@if [ "$$(uname)" = Linux ] && [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ]; then \
	  echo "make run: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so the desktop window cannot open." >&2; \
	  echo "  For a virtual display run:   xvfb-run -a make run" >&2; \
	  echo "  Without a window use the CLI: make setup && ./build/bin/ferry help" >&2; \
	  exit 1; fi
	@$(MAKE) --no-print-directory setup
	./build/bin/ferry-desktop

## demo: all set-up, then the desktop app in demo mode: a built-in simulator
## of the sites on a throw-away data directory (your own is never touched)
demo:
	@if [ "$$(uname)" = Linux ] && [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ]; then \
	  echo "make demo: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so the desktop window cannot open." >&2; \
	  echo "  For a virtual display run:   xvfb-run -a make demo" >&2; \
	  echo "  Without a window use the CLI: make setup && ./build/bin/ferry help" >&2; \
	  exit 1; fi
	@$(MAKE) --no-print-directory setup
	./build/bin/ferry-desktop --demo

## test: all set-up, then vet and every test (unit, CLI, frontend, GUI under
## Xvfb, Windows under Wine, the packages)
# Once everything is built, three lanes at once: the Go tests and then the
# benchmarks, which keep both cores busy; the window's GUI tests, which wait
# on windows and leave a core idle; and the frontend's, the headful
# browser's, Wine's and the packages' (which wait on Wine). Each fills the
# others' waits, so the suite takes about its CPU time over two cores. A
# failure in any lane fails make test once all have ended.
test: setup vet mcpclient $(WINE_BIN)/bcryptprimitives.dll
	@$(MAKE) --no-print-directory -j3 go-tests app-gui-tests desktop-tests

# The GUI tests take about 9 minutes beside the other lanes, 13 with a
# busy loop on each core: their bound is for a hang, not for a slow machine.
app-gui-tests:
	$(XVFB) $(GO) test -count=1 -timeout 30m -tags gui -bench . -benchtime 1x ./app/guitest/
desktop-tests:
	@$(MAKE) --no-print-directory frontend-tests
	@$(MAKE) --no-print-directory XVFB_FROM=150 headful-tests
	@$(MAKE) --no-print-directory XVFB_FROM=160 windows-tests
	@$(MAKE) --no-print-directory XVFB_FROM=170 package-tests

setup: system build

system:
	@scripts/setup-system.sh

frontend/node_modules/.stamp: frontend/package.json frontend/package-lock.json
	cd frontend && (npm ci --no-audit --no-fund || npm ci --no-audit --no-fund)
	touch $@

# The frontend is built again only when one of its sources changed: the
# tests read frontend/dist while other steps run.
FRONTEND_SRC := $(shell find frontend/src frontend/public frontend/wailsjs -type f 2>/dev/null) \
  frontend/index.html frontend/vite.config.ts frontend/svelte.config.js frontend/tsconfig.json
frontend/dist/.built: $(FRONTEND_SRC) frontend/node_modules/.stamp
	cd frontend && npm run build
	touch $@

frontend: frontend/dist/.built

## mcpclient: the official TypeScript MCP client (pinned) that backend/cli's
## tests run against `ferry mcp`
MCPCLIENT := backend/cli/testdata/mcpclient
$(MCPCLIENT)/node_modules/.stamp: $(MCPCLIENT)/package.json $(MCPCLIENT)/package-lock.json
	cd $(MCPCLIENT) && (npm ci --no-audit --no-fund || npm ci --no-audit --no-fund)
	touch $@

mcpclient: $(MCPCLIENT)/node_modules/.stamp

build: cli app

cli:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o build/bin/ferry ./backend/cmd/ferry

app: frontend
	$(GO) build -buildmode=pie -tags $(DESKTOP_TAGS) -ldflags "$(LDFLAGS)" -o build/bin/ferry-desktop .

vet: frontend tidy
	$(GO) vet ./...
	$(GO) vet -tags $(DESKTOP_TAGS) . ./app/...
	$(GO) vet -tags gui ./app/guitest/ ./backend/browser/ ./backend/provider/ ./backend/cli/
	$(GO) vet -tags package ./build/packagetest/

## tidy: fail when `go mod tidy` would change go.mod or go.sum
tidy:
	@$(GO) mod tidy -diff >/dev/null 2>&1 || { echo "go.mod/go.sum are not tidy: run \`go mod tidy\` and commit the result" >&2; $(GO) mod tidy -diff >&2; exit 1; }

# Every benchmark also runs once (-benchtime 1x, its assertions on), so a
# figure in docs/ never stands on a benchmark that no longer runs. They run
# after the tests and apart from them, one go test per package, three at a
# time: given -bench, one go test runs its packages one at a time.
BENCH_PKGS = $(sort $(dir $(shell grep -rl --include='*_test.go' '^func Benchmark' backend)))
test-go: frontend mcpclient
	@$(MAKE) --no-print-directory go-tests
# The packages whose tests take longest start first (go test starts them in
# the order named), so the last minutes are not one long package alone.
SLOW_PKGS := ./backend/cli ./backend/core ./backend/provider/chatgpt \
  $(addprefix ./backend/provider/,aistudio claude deepseek gemini grok kimi internal/testsite sim) \
  ./backend/job ./backend/mcp ./backend/browser ./backend/provider ./backend/sitecheck \
  ./backend/browser/fetch ./app ./backend/tabs ./backend/store ./backend/hub/client
go-tests:
	$(GO) test -count=1 -timeout 20m -p 4 $(SLOW_PKGS) ./...
	printf '%s\n' $(BENCH_PKGS) | xargs -P 3 -I{} $(GO) test -count=1 -timeout 10m -run '^$$' -bench . -benchtime 1x ./{}

test-frontend: frontend/node_modules/.stamp
	@$(MAKE) --no-print-directory frontend-tests
frontend-tests:
	cd frontend && npm run check && npm test

test-gui: frontend
	@$(MAKE) --no-print-directory gui-tests
gui-tests: app-gui-tests
	@$(MAKE) --no-print-directory headful-tests
# Headful Chromium: input to background tabs (focus emulation), all sites.
# One package at a time: they share the display, and a test that checks
# which window has the focus must not see another package's browser.
headful-tests:
	$(XVFB) $(GO) test -p 1 -count=1 -timeout 15m -tags gui -run Headful ./backend/browser/ ./backend/provider/ ./backend/cli/

## test-windows: the Windows build under Wine, in a private prefix made for
## the run (build/windows/wine/prefix.sh): the backend packages' tests
## cross-compiled for windows/amd64, and ferry.exe end to end against the
## simulator through a Linux Chromium (build/windowstest)
test-windows: system $(WINE_BIN)/bcryptprimitives.dll
	@$(MAKE) --no-print-directory windows-tests
windows-tests:
	$(GO) vet -tags wine ./build/windowstest/
	build/windows/wine/overlay.sh $(WINE_BIN)
	FERRY_WINE_OVERLAY=$(CURDIR)/$(WINE_BIN)/overlay.json $(XVFB) build/windows/wine/prefix.sh $(WINE_BIN)/bcryptprimitives.dll -- \
	  $(GO) test -v -count=1 -timeout 20m -tags wine ./build/windowstest/

# The ProcessPrng shim Go's Windows runtime needs under Wine 8 (tests only).
$(WINE_BIN)/bcryptprimitives.dll: build/windows/wine/bcryptprimitives.c
	mkdir -p $(WINE_BIN)
	x86_64-w64-mingw32-gcc -shared -O2 -Wall -Wl,--no-insert-timestamp -o $@ $< -ladvapi32

## package: into build/dist/, the .deb and the portable .tar.gz (Linux), the
## installer and the portable .zip (Windows), the CLI tarballs (macOS arm64, amd64)
package: build
	scripts/package.sh

## test-package: build the packages, check them (desktop-file-validate,
## appstreamcli, lintian; file lists, PE subsystems and resources, Mach-O
## arches), install the .deb, run it, remove it; install the Windows installer
## under Wine in a private prefix, run ferry.exe, uninstall it
test-package: build $(WINE_BIN)/bcryptprimitives.dll
	@$(MAKE) --no-print-directory package-tests
# The binaries are built: `make test` runs this beside the Go tests, and a
# build would write over binaries they run.
package-tests:
	FERRY_PACKAGE_FAST=1 scripts/package.sh
	FERRY_WINE_SHIM=$(CURDIR)/$(WINE_BIN)/bcryptprimitives.dll $(XVFB) $(GO) test -count=1 -timeout 15m -tags package ./build/packagetest/

## bindings: regenerate frontend/wailsjs from the bound Go structs
bindings:
	d=$$(mktemp -d) && $(GO) build -tags bindings -o $$d/wb . && $$d/wb && rm -rf $$d

clean:
	rm -rf build/bin frontend/dist/assets frontend/node_modules $(MCPCLIENT)/node_modules
