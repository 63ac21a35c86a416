# `make run`   installs what is missing, builds, starts the host in the foreground.
# `make test`  installs what the tests need and runs every test.
# `make bench` prints the benchmarks as ratios against baselines measured in the same run.
# `make fuzz`  runs the libFuzzer harnesses (Tests/fuzz/), FUZZ_SECONDS each; not part of `make test`.
# `make test-js-node18` runs the JS tests with Debian's/Ubuntu's own Node 18; not part of `make test`.
# `make install` puts TouchDeck under PREFIX (default ~/.local; AUTOSTART=1 also starts it at login),
# `make uninstall` removes exactly what it put there, `make deb` builds .build/touchdeck_<version>_<arch>.deb.
SWIFT ?= swift
PY := .venv/bin/python
PREFIX ?= $(HOME)/.local
# The release build links the Swift runtime in, so the installed binary and the .deb need no Swift toolchain.
RELEASE := $(SWIFT) build -c release --product touchdeck --static-swift-stdlib
# `make install` and `make deb` take TOUCHDECK_BIN when it is set (the tests pass the binary they built), else
# build the release binary first.
INSTALL_BIN = $(or $(TOUCHDECK_BIN),.build/release/touchdeck)

.PHONY: run test bench fuzz build build-release install uninstall deb test-format test-swift test-js test-js-node18 test-py test-release clean

run: build-release
	scripts/run-host $(ARGS)

build:
	scripts/bootstrap test
	$(SWIFT) build --build-tests

build-release:
	scripts/bootstrap run
	$(RELEASE)

install: $(if $(TOUCHDECK_BIN),,build-release)
	scripts/install --prefix "$(PREFIX)" --binary "$(INSTALL_BIN)" $(if $(AUTOSTART),--autostart)

uninstall:
	scripts/install --uninstall --prefix "$(PREFIX)"

deb: $(if $(TOUCHDECK_BIN),,build-release)
	scripts/make-deb --binary "$(INSTALL_BIN)"

# The release build runs beside the Python suites at the lowest priority (scripts/alongside), so the release
# test finds it built instead of waiting for it; `make test-release` alone builds it in the foreground. Either
# way its output is kept in .build/release-build.log, which scripts/check-build-log reads.
test: build test-format test-swift test-js
	scripts/alongside .build/release-build.log $(RELEASE) -- $(MAKE) test-py
	$(MAKE) test-release RELEASE_BUILT=1

# The code's form: swift-format's own lint with the project's .swift-format (120 columns), and no citation of a
# document outside the repository (scripts/rewrite-citations --check: the rules live in docs/DESIGN.md).
test-format:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift
	scripts/rewrite-citations --check

test-swift:
	scripts/with-desktop $(SWIFT) test --skip-build
	scripts/with-mutter $(SWIFT) test --skip-build --filter DeckWaylandTests
	MUTTER_SIZE="1280x720 800x600" scripts/with-mutter $(SWIFT) test --skip-build --filter MutterTwoMonitorTests
	scripts/with-sway $(SWIFT) test --skip-build --filter PortalLiveTests
	scripts/with-uinput-vm .build/debug/TouchDeckPackageTests.xctest --testing-library swift-testing --filter UinputKernelTests

test-js:
	node --test Web/test/

# A short run of the optimized binary `make run` starts (pair, view a frame, record a second): crashes that
# only a release build has are caught here, not first in `make bench`. The same binary is installed with
# `make install` and packaged with `make deb` there (Tests/release/test_install.py). The build must print no
# "prohibited flag" line and no warning from Sources/ (scripts/check-build-log; issue 19.19): a fresh clone's
# `make test` checks its whole build, an incremental build only what it compiled. RELEASE_BUILT=1 (from `make
# test`): already built beside the Python suites, whose log is the one checked.
test-release:
	[ -n "$(RELEASE_BUILT)" ] || bash -o pipefail -c 'mkdir -p .build && $(RELEASE) 2>&1 | tee .build/release-build.log'
	scripts/check-build-log .build/release-build.log
	TOUCHDECK_BIN=.build/release/touchdeck scripts/with-desktop $(PY) -m pytest -q Tests/release

# The JS tests with the distribution's own Node 18 (Debian 12, Ubuntu 24.04), fetched with apt-get download.
test-js-node18:
	scripts/with-debian-node node --test Web/test/

test-py:
	scripts/with-desktop $(PY) -m pytest -q --durations=30 Tests/interop Tests/live Tests/browser
	scripts/with-mutter $(PY) -m pytest -q --durations=10 Tests/wayland
	MUTTER_PORTAL=1 scripts/with-mutter $(PY) -m pytest -q Tests/wayland/test_portal_remote_live.py
	scripts/with-sway $(PY) -m pytest -q --durations=10 Tests/wayland
	SWAY_SIZE="1280x720 800x600" scripts/with-sway $(PY) -m pytest -q Tests/wayland/test_sway_portal_monitors_live.py
	SWAY_FAKE_VIRTUAL=1 scripts/with-sway $(PY) -m pytest -q Tests/wayland/test_portal_virtual_extend_live.py
	scripts/with-xorg-dummy $(PY) -m pytest -q Tests/xorg

fuzz:
	scripts/fuzz $(ARGS)

bench:
	scripts/bootstrap test
	$(SWIFT) build -c release
	scripts/bench

clean:
	rm -rf .build test-output
