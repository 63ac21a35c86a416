"""TouchDeck installed as a desktop app: `make install` into a throwaway prefix and `make uninstall` out of it,
the binary finding its web client relative to itself (and refusing to start, naming the paths, without one), and
`make deb`: lintian, the files where Debian puts them, and the package unpacked by dpkg into a throwaway root
whose binary serves. Uses the release binary `make test-release` built (TOUCHDECK_BIN), so nothing builds again."""

import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "support"))
from daemon import BINARY, Daemon  # noqa: E402
from tlshelpers import fetch  # noqa: E402

WEB_FILES = sorted(str(p.relative_to(ROOT / "Web")) for d in ("app", "core") for p in (ROOT / "Web" / d).rglob("*")
                   if p.is_file() and p.suffix != ".md")
# What `make install` puts under PREFIX besides the web client.
DESKTOP_FILES = ["bin/touchdeck", "share/applications/touchdeck.desktop",
                 "share/icons/hicolor/scalable/apps/touchdeck.svg",
                 "share/icons/hicolor/symbolic/apps/touchdeck-symbolic.svg",
                 "share/icons/hicolor/symbolic/apps/touchdeck-viewing-symbolic.svg",
                 "share/icons/hicolor/symbolic/apps/touchdeck-recording-symbolic.svg",
                 "share/touchdeck/autostart/touchdeck.desktop", "share/man/man1/touchdeck.1.gz"]


def make(*args, env=None):
    done = subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "TOUCHDECK_BIN": str(BINARY), **(env or {})})
    assert done.returncode == 0, f"make {' '.join(args)}:\n{done.stdout}{done.stderr}"
    return done.stdout


def files_under(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() or p.is_symlink())


def serves_the_app(binary, home, cwd):
    """Starts `binary serve` in `cwd` and answers the status of GET / over HTTPS."""
    host = Daemon(home=home, binary=binary, cwd=cwd).start()
    try:
        response = fetch(host.port, "/")
        return response.status, response.body
    finally:
        host.stop()


def test_make_install_serves_from_any_folder_and_make_uninstall_removes_exactly_its_files(tmp_path):
    prefix = tmp_path / "prefix"
    (prefix / "share" / "other").mkdir(parents=True)
    (prefix / "share" / "other" / "keep.txt").write_text("not ours\n")
    config_home = tmp_path / "config-home"
    make("install", f"PREFIX={prefix}", "AUTOSTART=1", env={"XDG_CONFIG_HOME": str(config_home)})

    installed = files_under(prefix)
    expected = sorted(DESKTOP_FILES + ["share/other/keep.txt", "share/systemd/user/touchdeck.service",
                                       "share/touchdeck/installed-files"]
                      + [f"share/touchdeck/web/{f}" for f in WEB_FILES])
    assert installed == expected
    assert os.access(prefix / "bin/touchdeck", os.X_OK)
    entry = (prefix / "share/applications/touchdeck.desktop").read_text()
    assert f"Exec={prefix}/bin/touchdeck serve\n" in entry and "Icon=touchdeck\n" in entry
    unit = (prefix / "share/systemd/user/touchdeck.service").read_text()
    assert f"ExecStart={prefix}/bin/touchdeck serve\n" in unit
    autostart = config_home / "autostart/touchdeck.desktop"
    assert autostart.read_text() == (prefix / "share/touchdeck/autostart/touchdeck.desktop").read_text()

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    status, body = serves_the_app(prefix / "bin/touchdeck", tmp_path / "home", cwd=elsewhere)
    assert status == 200 and body == (ROOT / "Web/app/index.html").read_bytes()

    make("uninstall", f"PREFIX={prefix}", env={"XDG_CONFIG_HOME": str(config_home)})
    assert files_under(prefix) == ["share/other/keep.txt"], "only what install put there goes"
    assert sorted(str(p.relative_to(prefix)) for p in prefix.rglob("*")) == ["share", "share/other",
                                                                               "share/other/keep.txt"]
    assert not autostart.exists()


def test_a_binary_without_its_web_client_refuses_to_start_and_names_where_it_looked(tmp_path):
    alone = tmp_path / "opt" / "bin" / "touchdeck"
    alone.parent.mkdir(parents=True)
    shutil.copy2(BINARY, alone)
    home = Daemon(home=tmp_path / "home", binary=alone)  # only its environment
    done = subprocess.run([str(alone), "serve", "--port", "0", "--config-dir", str(home.config_dir)], cwd=tmp_path,
                          env={k: v for k, v in home.env.items() if k != "TOUCHDECK_WEB"}, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode != 0
    assert "no web client found" in done.stderr, done.stderr
    assert str(tmp_path / "opt/share/touchdeck/web") in done.stderr and str(tmp_path / "opt/bin/Web") in done.stderr
    assert "--web-root" in done.stderr
    assert not (home.config_dir / "control.sock").exists(), "nothing started"


def test_make_deb_passes_lintian_lists_its_files_where_debian_puts_them_and_runs_from_a_throwaway_root(tmp_path):
    deb = pathlib.Path(make("deb").strip().splitlines()[-1])
    deb = deb if deb.is_absolute() else ROOT / deb
    lint = subprocess.run(["lintian", "--fail-on", "error", str(deb)],
                          capture_output=True, text=True, timeout=120)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert not [line for line in lint.stdout.splitlines() if line.startswith("E:")], lint.stdout

    listing = subprocess.run(["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True).stdout
    paths = {line.split()[5].lstrip(".") for line in listing.splitlines() if not line.startswith("d")}
    for path in ["/usr/bin/touchdeck", "/usr/share/applications/touchdeck.desktop",
                 "/usr/share/icons/hicolor/scalable/apps/touchdeck.svg",
                 "/usr/share/icons/hicolor/symbolic/apps/touchdeck-symbolic.svg",
                 "/usr/share/man/man1/touchdeck.1.gz", "/usr/lib/systemd/user/touchdeck.service",
                 "/usr/share/touchdeck/autostart/touchdeck.desktop", "/usr/share/doc/touchdeck/copyright",
                 "/usr/share/touchdeck/web/app/index.html", "/usr/share/touchdeck/web/core/client.js"]:
        assert path in paths, f"{path} not in the package:\n{listing}"
    assert not [p for p in paths if p.startswith(("/etc", "/home", "/root", "/usr/local"))], listing
    assert "/usr/share/touchdeck/installed-files" not in paths, "dpkg keeps the list, not the package"

    fields = subprocess.run(["dpkg-deb", "--field", str(deb), "Depends"], capture_output=True, text=True,
                            check=True).stdout
    for library in ["libc6", "libssl3", "libwebsockets17", "libpulse0", "libglib2.0-0"]:
        assert library in fields, fields
    assert "swift" not in fields.lower()

    root = tmp_path / "root"
    (root / "var/lib/dpkg/info").mkdir(parents=True)
    (root / "var/lib/dpkg/updates").mkdir()
    (root / "var/lib/dpkg/status").write_text("")
    subprocess.run(["dpkg", f"--root={root}", "--force-depends", "--force-not-root", "--log=/dev/null", "-i",
                    str(deb)], capture_output=True, text=True, check=True, timeout=60)
    version = subprocess.run([str(root / "usr/bin/touchdeck"), "--version"], capture_output=True, text=True,
                             check=True).stdout
    assert version.startswith("touchdeck ")
    status, _ = serves_the_app(root / "usr/bin/touchdeck", tmp_path / "home", cwd=tmp_path)
    assert status == 200
