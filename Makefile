# `make run`   installs what is missing, builds, starts the host in the foreground.
# `make test`  installs what the tests need and runs every test.
# `make bench` prints the benchmarks as ratios against baselines measured in the same run.
# `make fuzz`  runs the libFuzzer harnesses (Tests/fuzz/), FUZZ_SECONDS each; not part of `make test`.
# `make test-js-node18` runs the JS tests with Debian's/Ubuntu's own Node 18; not part of `make test`.
SWIFT ?= swift
PY := .venv/bin/python

.PHONY: run test bench fuzz build build-release test-swift test-js test-js-node18 test-py clean

run: build-release
	scripts/run-host $(ARGS)

build:
	scripts/bootstrap test
	$(SWIFT) build --build-tests

build-release:
	scripts/bootstrap run
	$(SWIFT) build -c release --product touchdeck

test: build test-swift test-js test-py

test-swift:
	scripts/with-desktop $(SWIFT) test --skip-build
	scripts/with-mutter $(SWIFT) test --skip-build --filter DeckWaylandTests
	MUTTER_SIZE="1280x720 800x600" scripts/with-mutter $(SWIFT) test --skip-build --filter MutterTwoMonitorTests
	scripts/with-sway $(SWIFT) test --skip-build --filter PortalLiveTests
	scripts/with-uinput-vm .build/debug/TouchDeckPackageTests.xctest --testing-library swift-testing --filter UinputKernelTests

test-js:
	node --test Web/test/

# The JS tests with the distribution's own Node 18 (Debian 12, Ubuntu 24.04), fetched with apt-get download.
test-js-node18:
	scripts/with-debian-node node --test Web/test/

test-py:
	scripts/with-desktop $(PY) -m pytest -q Tests/interop Tests/live Tests/browser
	scripts/with-mutter $(PY) -m pytest -q Tests/wayland
	MUTTER_PORTAL=1 scripts/with-mutter $(PY) -m pytest -q Tests/wayland/test_portal_remote_live.py
	scripts/with-sway $(PY) -m pytest -q Tests/wayland

fuzz:
	scripts/fuzz $(ARGS)

bench:
	scripts/bootstrap test
	$(SWIFT) build -c release
	scripts/bench

clean:
	rm -rf .build test-output
