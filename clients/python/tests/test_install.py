"""Both installs of the package, offline, each used without PYTHONPATH.

- ``cmake --install build --prefix V``, V a venv (a prefix with its own
  Python): the package in V's site-packages, the library's path recorded;
  and where a system prefix (/usr/local, with DESTDIR) and a prefix without
  a Python put it.
- ``V/bin/pip install --no-index ./clients/python[grpc]`` into a venv made
  with --system-site-packages (Debian's python3-grpcio, python3-protobuf).

ctest (python_install_test) sets ARBITER_BINARY_DIR and ARBITER_SOURCE_DIR,
and ARBITER_PYTHON, the interpreter the build installs for.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import unittest
from typing import Any, Optional

import loopback

PYTHON = os.environ.get("ARBITER_PYTHON") or "/usr/bin/python3"
BUILD = loopback.binary_dir()
PACKAGE_DIR = os.path.join(loopback.SOURCE_DIR, "clients", "python")

# Imports both modules and the stubs, then asks two questions of the library.
PROBE = """
import json, arbiter, arbiter_client, arbiter.v1.arbiter_pb2_grpc as stubs
engine = arbiter.Engine()
print(json.dumps({
    "arbiter": arbiter.__file__,
    "client": arbiter_client.__file__,
    "stubs": stubs.__file__,
    "library": arbiter.library_path(),
    "version": arbiter.version(),
    "yes": engine.can_mate("8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1", True)["can_mate"],
    "no": engine.can_mate("8/8/3rk3/8/8/2K5/8/8 w - - 0 1", "white"),
}))
"""


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without what would find the package or the library
    for the interpreter (ARBITER_TABLES stays: the tests' tables)."""
    env = dict(os.environ)
    for name in ("PYTHONPATH", "PYTHONHOME", "ARBITER_LIBRARY", "VIRTUAL_ENV", "LD_LIBRARY_PATH"):
        env.pop(name, None)
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INPUT="1", **extra)
    return env


def run(
    argv: list[str], cwd: str, env: Optional[dict[str, str]] = None, timeout: float = 120
) -> str:
    p = subprocess.run(
        argv, cwd=cwd, env=env or clean_env(), capture_output=True, text=True, timeout=timeout
    )
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(argv)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p.stdout


def cache_value(name: str) -> str:
    with open(os.path.join(BUILD, "CMakeCache.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip()
    raise AssertionError(f"{name} is not in {BUILD}/CMakeCache.txt")


def site_packages(python: str) -> list[str]:
    out = run([python, "-c", "import site; print('\\n'.join(site.getsitepackages()))"], "/")
    return out.split()


def under(path: str, directory: str) -> bool:
    return os.path.realpath(path).startswith(os.path.realpath(directory) + os.sep)


class InstallTest(unittest.TestCase):
    maxDiff = None

    def setUp(self) -> None:
        self.tmp = tempfile.mkdtemp(prefix="arbiter-python-install-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def probe(self, python: str, **env: str) -> dict[str, Any]:
        # In the temporary directory, so that no package of the source tree
        # is on the path by way of the working directory.
        result: dict[str, Any] = json.loads(run([python, "-c", PROBE], self.tmp, clean_env(**env)))
        self.assertEqual(result["yes"], "yes")
        self.assertEqual(
            result["no"], {"can_mate": "no", "proof": "material", "line": None, "line_san": None}
        )
        return result

    def test_cmake_install_into_a_venv(self) -> None:
        prefix = os.path.join(self.tmp, "prefix")
        run([PYTHON, "-m", "venv", "--without-pip", "--system-site-packages", prefix], self.tmp)
        run(["cmake", "--install", BUILD, "--prefix", prefix], self.tmp)
        site = site_packages(os.path.join(prefix, "bin", "python3"))[0]
        libdir = cache_value("CMAKE_INSTALL_LIBDIR")
        library = os.path.join(prefix, libdir, "libarbiter.so.1")
        with open(os.path.join(site, "arbiter", "_installed.py"), encoding="utf-8") as f:
            self.assertIn(f'LIBRARY = "{library}"', f.read())
        result = self.probe(os.path.join(prefix, "bin", "python3"))
        for key in ("arbiter", "client", "stubs"):
            self.assertTrue(under(result[key], site), f"{key}: {result[key]} is not in {site}")
        # The recorded path, neither ARBITER_LIBRARY nor the loader.
        self.assertEqual(result["library"], library)

    def test_where_other_prefixes_get_it(self) -> None:
        libdir = cache_value("CMAKE_INSTALL_LIBDIR")
        # A system prefix, staged: the directory its Python searches
        # (Debian: /usr/local/lib/python3.11/dist-packages), the library's
        # path without DESTDIR.
        stage = os.path.join(self.tmp, "stage")
        env = clean_env(DESTDIR=stage)
        run(["cmake", "--install", BUILD, "--prefix", "/usr/local", "--component", "python"],
            self.tmp, env)  # fmt: skip
        pythons = [p for p in ("/usr/local/bin/python3",) if os.path.exists(p)] + [PYTHON]
        searched = [d for p in pythons for d in site_packages(p) if d.startswith("/usr/local/lib")]
        site = searched[0] if searched else "/usr/local/lib/python3/dist-packages"
        staged = stage + site
        self.assertTrue(os.path.isfile(os.path.join(staged, "arbiter", "__init__.py")), staged)
        self.assertTrue(os.path.isfile(os.path.join(staged, "arbiter", "v1", "verdict_pb2.py")))
        self.assertTrue(os.path.isfile(os.path.join(staged, "arbiter_client", "client.py")))
        self.assertTrue(os.path.isfile(os.path.join(staged, "arbiter", "py.typed")))
        with open(os.path.join(staged, "arbiter", "_installed.py"), encoding="utf-8") as f:
            self.assertIn(f'LIBRARY = "/usr/local/{libdir}/libarbiter.so.1"', f.read())
        # A prefix without a Python of its own: lib/python3/dist-packages,
        # and the install says how to use it.
        plain = os.path.join(self.tmp, "plain")
        out = run(["cmake", "--install", BUILD, "--prefix", plain, "--component", "python"],
                  self.tmp)  # fmt: skip
        site = os.path.join(plain, "lib", "python3", "dist-packages")
        self.assertTrue(os.path.isfile(os.path.join(site, "arbiter", "engine.py")))
        self.assertIn(f"PYTHONPATH={site}", out)

    def test_pip_install_offline(self) -> None:
        venv = os.path.join(self.tmp, "venv")
        run([PYTHON, "-m", "venv", "--system-site-packages", venv], self.tmp)
        before = sorted(os.listdir(PACKAGE_DIR))
        # No index: the build needs nothing but the standard library, and
        # [grpc]'s grpcio and protobuf are Debian's, through the venv.
        run([os.path.join(venv, "bin", "pip"), "install", "--no-index", "--no-cache-dir",
             "--disable-pip-version-check", PACKAGE_DIR + "[grpc]"],
            self.tmp, clean_env(PYTHONDONTWRITEBYTECODE="1"), timeout=180)  # fmt: skip
        after = sorted(n for n in os.listdir(PACKAGE_DIR) if n != "__pycache__")
        self.assertEqual(after, [n for n in before if n != "__pycache__"], "pip wrote in the tree")
        python = os.path.join(venv, "bin", "python3")
        site = site_packages(python)[0]
        library = os.path.join(BUILD, "capi", "libarbiter.so.1")
        result = self.probe(python, ARBITER_LIBRARY=library)
        for key in ("arbiter", "client", "stubs"):
            self.assertTrue(under(result[key], site), f"{key}: {result[key]} is not in {site}")
        self.assertEqual(result["library"], library)
        # The distribution's version is the library's release.
        metadata = "import importlib.metadata as m; print(m.version('arbiter-chess'))"
        version = run([python, "-c", metadata], self.tmp).strip()
        self.assertEqual(version, result["version"].split()[0])
        self.assertFalse(os.path.exists(os.path.join(site, "arbiter", "_installed.py")))


if __name__ == "__main__":
    unittest.main()
