"""Builds the compiled module sparsesvm._core with CMake when pip installs the package from the source tree:

    /usr/bin/python3 -m pip install --no-build-isolation ./python      (offline; or in a venv made with
                                                                       --system-site-packages)

The CMake project is the repository's (the folder above this one), configured in pip's build folder with
the tests off, for the interpreter that runs pip. SPARSESVM_BUILD_DIR=DIR builds the module in an existing
build folder instead (no reconfiguration: `cmake --build DIR --target sparsesvm_python`), which reuses
its compiled libraries. A copy of this folder that already holds a compiled _core (build/python, which the
CMake build fills) is packaged as it is.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, extension):
        target = Path(self.get_ext_fullpath(extension.name)).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self._compiled_module(), target)

    def _compiled_module(self):
        prebuilt = sorted((HERE / "sparsesvm").glob("_core*.so"))
        if prebuilt:
            return prebuilt[0]
        given = os.environ.get("SPARSESVM_BUILD_DIR")
        build_dir = Path(given).resolve() if given else Path(self.build_temp).resolve() / "cmake"
        if not given:
            repository = HERE.parent
            if not (repository / "CMakeLists.txt").exists():
                sys.exit(f"sparsesvm: {repository} has no CMakeLists.txt; install from the repository's python/ folder")
            subprocess.run(["cmake", "-S", str(repository), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                            "-DSPARSESVM_BUILD_TESTS=OFF", f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "sparsesvm_python", "-j", str(os.cpu_count() or 1)],
                       check=True)
        built = sorted((build_dir / "python" / "sparsesvm").glob("_core*.so"))
        if not built:
            sys.exit(f"sparsesvm: the CMake build in {build_dir} made no python/sparsesvm/_core*.so")
        return built[0]


setup(ext_modules=[Extension("sparsesvm._core", sources=[])], cmdclass={"build_ext": CMakeBuild})
