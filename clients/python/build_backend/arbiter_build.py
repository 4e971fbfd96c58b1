"""The package's build backend (PEP 517): a pure-Python wheel, from the
standard library alone.

Why not setuptools: pip builds a pyproject.toml project in an isolated
environment and fetches the build requirements there first, so with
setuptools ``pip install ./clients/python`` needs the network, or
``--no-build-isolation`` and setuptools and wheel in the environment
(Debian 12's venvs bundle setuptools 66, which cannot build a wheel
without the ``wheel`` package). With this backend the build requirements
are none (``requires = []``), so the plain command works offline in any
venv, and the wheel holds exactly the files below.

The wheel: ``arbiter`` (the in-process Engine), ``arbiter_client`` (the
gRPC client) and ``arbiter.v1``, the gRPC client's messages and stubs,
generated from proto/ (the repository's, or the sdist's copy) with protoc
and grpc_python_plugin (Debian: protobuf-compiler, protobuf-compiler-grpc;
$PROTOC and $GRPC_PYTHON_PLUGIN name others) when both are found. Without
them the wheel has no ``arbiter.v1``, the build says so, and the in-process
module works as ever; the gRPC client then does not import.
"""

from __future__ import annotations

import base64
import calendar
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from typing import Any, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("arbiter", "arbiter_client")
# What the gRPC client needs: the messages and the Arbiter service (not the
# coordinator-to-worker service), as clients/python/CMakeLists.txt.
PROTOS = ("arbiter/v1/verdict.proto", "arbiter/v1/arbiter.proto")
V1_INIT = b'"""arbiter.v1: messages and gRPC stubs generated from proto/arbiter/v1."""\n'


def _project() -> dict[str, Any]:
    try:
        import tomllib
    except ImportError:  # Python < 3.11: tomli, from get_requires_*
        import tomli as tomllib  # type: ignore[no-redef]
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return dict(tomllib.load(f)["project"])


def _requires() -> list[str]:
    return [] if sys.version_info >= (3, 11) else ["tomli>=1.1"]


def get_requires_for_build_wheel(config_settings: Optional[dict[str, Any]] = None) -> list[str]:
    return _requires()


def get_requires_for_build_sdist(config_settings: Optional[dict[str, Any]] = None) -> list[str]:
    return _requires()


def _dist_name(project: dict[str, Any]) -> str:
    return "{}-{}".format(project["name"].replace("-", "_"), project["version"])


def _metadata(project: dict[str, Any]) -> bytes:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
    ]
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    for extra, deps in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {d}; extra == "{extra}"' for d in deps]
    readme = project.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
            body = f.read()
    return ("\n".join(lines) + "\n\n" + body).encode("utf-8")


def _sources() -> list[tuple[str, str]]:
    """(path in the archive, file) for the packages' files."""
    out = []
    for package in PACKAGES:
        top = os.path.join(ROOT, package)
        for directory, subdirs, files in os.walk(top):
            subdirs[:] = sorted(d for d in subdirs if d != "__pycache__")
            for name in sorted(files):
                # _installed.py is cmake --install's record, never pip's.
                if name.endswith((".py", ".pyi")) or name == "py.typed":
                    if name != "_installed.py":
                        path = os.path.join(directory, name)
                        out.append((os.path.relpath(path, ROOT).replace(os.sep, "/"), path))
    return out


def _proto_dir() -> Optional[str]:
    for candidate in (os.path.join(ROOT, "proto"), os.path.join(ROOT, "..", "..", "proto")):
        if all(os.path.isfile(os.path.join(candidate, p)) for p in PROTOS):
            return os.path.abspath(candidate)
    return None


def _stubs(work: str) -> list[tuple[str, str]]:
    """arbiter/v1's generated modules, made in WORK; [] (and a warning)
    when protoc, grpc_python_plugin or the protos are missing."""
    protoc = os.environ.get("PROTOC") or shutil.which("protoc")
    plugin = os.environ.get("GRPC_PYTHON_PLUGIN") or shutil.which("grpc_python_plugin")
    protos = _proto_dir()
    missing = [
        what
        for what, found in (
            ("protoc (Debian: protobuf-compiler)", protoc),
            ("grpc_python_plugin (Debian: protobuf-compiler-grpc)", plugin),
            ("proto/arbiter/v1", protos),
        )
        if not found
    ]
    if missing:
        print(
            "arbiter_build: arbiter.v1 is not built, so arbiter_client (the gRPC client) will "
            f"not import: {', '.join(missing)} not found",
            file=sys.stderr,
        )
        return []
    assert protoc and plugin and protos
    subprocess.run(
        [protoc, "-I", protos, f"--python_out={work}", f"--pyi_out={work}",
         f"--grpc_python_out={work}", f"--plugin=protoc-gen-grpc_python={plugin}",
         *(os.path.join(protos, p) for p in PROTOS)],
        check=True,
    )  # fmt: skip
    init = os.path.join(work, "arbiter", "v1", "__init__.py")
    with open(init, "wb") as f:
        f.write(V1_INIT)
    v1 = os.path.join(work, "arbiter", "v1")
    return [(f"arbiter/v1/{name}", os.path.join(v1, name)) for name in sorted(os.listdir(v1))]


def _timestamp() -> tuple[int, int, int, int, int, int]:
    # Reproducible archives: SOURCE_DATE_EPOCH when set, else zip's epoch.
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return time.gmtime(max(int(epoch), 315532800))[:6]
    return (1980, 1, 1, 0, 0, 0)


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel(
    wheel_directory: str,
    config_settings: Optional[dict[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    project = _project()
    dist = _dist_name(project)
    info = f"{dist}.dist-info"
    wheel_name = f"{dist}-py3-none-any.whl"
    stamp = _timestamp()
    with tempfile.TemporaryDirectory() as work:
        entries: list[tuple[str, bytes]] = []
        for arcname, path in _sources() + _stubs(work):
            with open(path, "rb") as f:
                entries.append((arcname, f.read()))
        entries += [
            (f"{info}/METADATA", _metadata(project)),
            (
                f"{info}/WHEEL",
                b"Wheel-Version: 1.0\nGenerator: arbiter_build\n"
                b"Root-Is-Purelib: true\nTag: py3-none-any\n",
            ),
            (f"{info}/top_level.txt", "".join(p + "\n" for p in PACKAGES).encode()),
        ]
        record = "".join(f"{name},{_digest(data)},{len(data)}\n" for name, data in entries)
        entries.append((f"{info}/RECORD", (record + f"{info}/RECORD,,\n").encode()))
        with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w") as wheel:
            for name, data in entries:
                entry = zipfile.ZipInfo(name, stamp)
                entry.compress_type = zipfile.ZIP_DEFLATED
                entry.external_attr = 0o644 << 16
                wheel.writestr(entry, data)
    return wheel_name


def build_sdist(sdist_directory: str, config_settings: Optional[dict[str, Any]] = None) -> str:
    """The package's sources with a copy of the protos, so that a wheel
    built from it has the stubs too."""
    project = _project()
    dist = _dist_name(project)
    protos = _proto_dir()
    files = [("pyproject.toml", os.path.join(ROOT, "pyproject.toml")),
             ("build_backend/arbiter_build.py", os.path.abspath(__file__))]  # fmt: skip
    if project.get("readme"):
        files.append((project["readme"], os.path.join(ROOT, project["readme"])))
    files += _sources()
    if protos:
        files += [(f"proto/{p}", os.path.join(protos, p)) for p in PROTOS]
    mtime = calendar.timegm(_timestamp())
    name = f"{dist}.tar.gz"
    path = os.path.join(sdist_directory, name)
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:

        def add(arcname: str, data: bytes) -> None:
            entry = tarfile.TarInfo(f"{dist}/{arcname}")
            entry.size, entry.mtime, entry.mode = len(data), mtime, 0o644
            tar.addfile(entry, io.BytesIO(data))

        add("PKG-INFO", _metadata(project))
        for arcname, path in files:
            with open(path, "rb") as f:
                add(arcname, f.read())
    return name
