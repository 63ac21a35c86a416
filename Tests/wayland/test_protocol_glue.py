"""The committed wayland-scanner output in Sources/CWaylandProtocols (SwiftPM compiles no C a build plugin generates)
equals what scripts/regen-wayland-protocols makes from the shipped XML files now. Needs no compositor."""

import filecmp
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGET = ROOT / "Sources" / "CWaylandProtocols"


def generated_files(folder):
    return sorted(p.relative_to(folder) for p in folder.rglob("*")
                  if p.name.endswith(("-protocol.c", "-client-protocol.h")))


def test_the_committed_glue_is_what_the_script_generates(tmp_path):
    subprocess.run([ROOT / "scripts" / "regen-wayland-protocols", tmp_path], check=True, timeout=60)
    fresh = generated_files(tmp_path)
    xml = sorted(p.stem for p in (TARGET / "protocol").glob("*.xml"))
    assert len(fresh) == 2 * len(xml) and xml, fresh
    assert generated_files(TARGET) == fresh
    for name in fresh:
        assert filecmp.cmp(TARGET / name, tmp_path / name, shallow=False), f"{name} differs: run the script"
