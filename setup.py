"""The build's one step pyproject.toml cannot say: the rule texts (data/*.toml) and the catalogues
(locales/<lang>/LC_MESSAGES/*.po) stay at the repository's top level, and a wheel (`pip install .`)
carries them inside the package as companion/data/ and companion/locales/, where
`companion.shared_dir` finds them; an sdist carries them at the top level, as in the repository."""
from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SHARED = {"data": "*.toml", "locales": "*/LC_MESSAGES/*.po"}


def shared_files() -> list[str]:
    """The files copied into the package, relative to the repository (and to the package)."""
    return sorted(path.as_posix() for folder, pattern in SHARED.items() for path in Path(folder).glob(pattern))


class BuildWithSharedFiles(build_py):
    """build_py, and data/ and locales/ copied under the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads them where they are
            return
        for name in shared_files():
            target = Path(self.build_lib, "companion", name)
            self.mkpath(str(target.parent))
            self.copy_file(name, str(target))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        shared = [] if self.editable_mode else [str(Path(self.build_lib, "companion", n)) for n in shared_files()]
        return [*super().get_outputs(include_bytecode), *shared]

    def get_source_files(self) -> list[str]:
        return [*super().get_source_files(), *shared_files()]


setup(cmdclass={"build_py": BuildWithSharedFiles})
