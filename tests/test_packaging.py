"""`pip install .` gives a working app without the repository: the wheel carries the rule texts
(data/*.toml), the catalogues (locales/<lang>/LC_MESSAGES/*.po) and the phone-alone build's scripts
inside the package (setup.py), and the installed package reads them from there, whatever the folder
it is started in. Checked offline on what the wheel is made of: setuptools' build_py run on a copy
of the sources (a wheel is that folder zipped), so nothing is written into the repository."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

READ = """
import companion, os
from companion import i18n, texts
assert companion.__file__.startswith(os.environ["SITE"]), companion.__file__
assert texts.DATA_DIR == __import__("pathlib").Path(os.environ["SITE"], "companion", "data"), texts.DATA_DIR
print(len(texts.load_all()[0]), i18n.translations("cs").gettext("Undo: {action}"))
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The folder a wheel zips: `setup.py build_py` on a copy of the sources."""
    pytest.importorskip("setuptools", reason="building needs setuptools in the test environment")
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    for folder in ("companion", "data", "locales"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    done = subprocess.run([sys.executable, "setup.py", "--quiet", "build_py", "--build-lib", str(tmp / "site")],
                          cwd=source, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return tmp / "site"


def test_the_wheel_carries_the_texts_the_catalogues_and_the_web_scripts(built):
    names = {path.relative_to(built).as_posix() for path in built.rglob("*") if path.is_file()}
    shared = {f"companion/data/{path.name}" for path in (ROOT / "data").glob("*.toml")}
    shared |= {f"companion/{path.relative_to(ROOT).as_posix()}" for path in (ROOT / "locales").glob("*/LC_MESSAGES/*.po")}
    scripts = {f"companion/web/{path.name}" for path in (ROOT / "companion" / "web").glob("*.*js")}
    assert len(shared) >= 7 and len(scripts) >= 4
    assert shared | scripts <= names, sorted(shared | scripts - names)
    assert {name.split("/")[0] for name in names} == {"companion"}  # no data/ or locales/ beside the package


def test_the_installed_package_reads_its_own_texts_from_any_folder(built, tmp_path):
    site = built
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run([sys.executable, "-c", READ], cwd=elsewhere, capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(site), "SITE": str(site), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    count, undo = done.stdout.split(" ", 1)
    assert int(count) > 100 and undo.strip() == "Vrátit: {action}"
