"""A real Arbiter cluster on 127.0.0.1 for the client's tests.

The programs users run (build/arbiter-worker, build/arbiter-coordinator),
started as processes on ephemeral ports (``--listen 127.0.0.1:0
--port-file FILE``), as tests/cluster_support.h starts them for the C++
tests, and the ``arbiter`` command line run embedded for the answers to
compare with.

Environment: ARBITER_BINARY_DIR (the build tree, set by ctest),
ARBITER_SOURCE_DIR (the source tree), ARBITER_TABLES (retrograde tables
shared by the tests; default BUILD/test-retrograde-tables, as the C++ tests),
ARBITER_SHARED (the shared material: games, Syzygy tables; default ../shared
beside the source tree).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
from typing import Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("ARBITER_SOURCE_DIR") or os.path.abspath(os.path.join(HERE, "../../.."))


def binary_dir() -> str:
    d = os.environ.get("ARBITER_BINARY_DIR")
    if not d:
        raise RuntimeError(
            "ARBITER_BINARY_DIR is not set: run this test through ctest "
            "(ctest --test-dir build -R python_client_test), or set it to the build tree"
        )
    return d


def tables_dir() -> str:
    return os.environ.get("ARBITER_TABLES") or os.path.join(binary_dir(), "test-retrograde-tables")


def shared_dir() -> Optional[str]:
    env = os.environ.get("ARBITER_SHARED")
    if env:
        return env
    d = os.path.join(os.path.dirname(SOURCE_DIR), "shared")
    return d if os.path.isdir(d) else None


def shared_file(test: unittest.TestCase, name: str) -> str:
    """The path of NAME (e.g. "games/x.pgn.zst") in the shared material;
    fails TEST, saying how to provide it, when it is absent."""
    shared = shared_dir()
    path = os.path.join(shared, name) if shared else None
    if not path or not os.path.isfile(path):
        test.fail(
            f"{name} is not in the shared material ({shared or '../shared is absent'}): "
            "set ARBITER_SHARED to the directory that holds games/"
        )
    return path


def syzygy_dir() -> Optional[str]:
    shared = shared_dir()
    d = os.path.join(shared, "syzygy") if shared else None
    return d if d and os.path.isdir(d) and any(n.endswith(".rtbw") for n in os.listdir(d)) else None


def cli_env() -> dict[str, str]:
    """The environment for the embedded ``arbiter``: no coordinator, no
    Syzygy tables unless asked, no TLS settings of the caller's."""
    env = dict(os.environ)
    for name in ("ARBITER_COORDINATOR", "ARBITER_SYZYGY", "ARBITER_TLS_CA", "ARBITER_TOKEN_FILE"):
        env.pop(name, None)
    return env


def run_cli(args: Sequence[str], timeout: float = 900) -> str:
    """``build/arbiter ARGS`` embedded; its standard output (fails on a non-zero exit)."""
    return run_cli_bytes(args, timeout).decode()


def run_cli_bytes(args: Sequence[str], timeout: float = 900) -> bytes:
    """As run_cli, the standard output as it is: bytes."""
    p = subprocess.run(
        [os.path.join(binary_dir(), "arbiter"), *args],
        env=cli_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        timeout=timeout,
    )
    if p.returncode != 0:
        raise AssertionError(
            f"arbiter {' '.join(args)} exited {p.returncode}: {p.stderr.decode(errors='replace')}"
        )
    return p.stdout


def cli_analyze(fen: str, moves: Sequence[str] = (), extra: Sequence[str] = ()) -> dict:
    """``arbiter analyze --json --fen FEN`` (with the tests' retrograde tables)."""
    args = ["analyze", "--json", "--fen", fen, "--tables", tables_dir(), *extra]
    if moves:
        args += ["--moves", *moves]
    return json.loads(run_cli(args))


def cli_verify(path: str) -> list[dict]:
    """``arbiter verify PATH --format jsonl``: the game records (not the summary)."""
    out = run_cli(["verify", path, "--tables", tables_dir(), "--format", "jsonl"])
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    return [r for r in records if "game" in r]


class Process:
    """A daemon with its output in LOG; stopped by stop()."""

    def __init__(self, argv: list[str], log: str) -> None:
        self.argv = argv
        self.log = log
        with open(log, "ab") as f:
            self.proc = subprocess.Popen(argv, stdout=f, stderr=f, stdin=subprocess.DEVNULL)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def tail(self) -> str:
        try:
            with open(self.log, errors="replace") as f:
                return f.read()[-4000:]
        except OSError:
            return ""


def wait_for_port(port_file: str, p: "Process", timeout: float = 120) -> int:
    """The port P writes to PORT_FILE (a number and a newline) once it
    listens; raises, with P's log, when P exits or TIMEOUT passes first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(port_file) as f:
                text = f.read()
            if text.endswith("\n"):
                return int(text)
        except FileNotFoundError:
            pass
        if p.proc.poll() is not None:
            break
        time.sleep(0.02)
    raise RuntimeError(f"{p.argv[0]} did not write {port_file} (exit {p.proc.poll()}):\n{p.tail()}")


class Cluster:
    """One worker and two coordinators in front of it: one in plain gRPC,
    one serving TLS with a bearer token (scripts/make-test-certs.sh)."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="arbiter-python-client-")
        self.processes: list[Process] = []
        self.syzygy = syzygy_dir()

    def path(self, name: str) -> str:
        return os.path.join(self.dir, name)

    def _start(self, name: str, argv: list[str]) -> int:
        port_file = self.path(name + ".port")
        p = Process(argv + ["--port-file", port_file], self.path(name + ".log"))
        self.processes.append(p)
        return wait_for_port(port_file, p)

    def start(self) -> None:
        bin_dir = binary_dir()
        worker = [
            os.path.join(bin_dir, "arbiter-worker"),
            "--listen", "127.0.0.1:0",
            "--threads", "2",
            "--tables", tables_dir(),
        ]
        if self.syzygy:
            worker += ["--syzygy", self.syzygy]
        self.worker_port = self._start("worker", worker)
        workers = f"127.0.0.1:{self.worker_port}"
        coordinator = [
            os.path.join(bin_dir, "arbiter-coordinator"),
            "--listen", "127.0.0.1:0",
            "--workers", workers,
            "--batch", "16",
        ]
        self.port = self._start("coordinator", coordinator + ["--job-dir", self.path("jobs")])
        self.address = f"127.0.0.1:{self.port}"

        certs = self.path("certs")
        subprocess.run(
            [os.path.join(SOURCE_DIR, "scripts/make-test-certs.sh"), certs],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self.ca = os.path.join(certs, "ca.pem")
        self.token_file = os.path.join(certs, "token")
        # Named callers beside the unnamed admin token (docs/security.md).
        self.named_tokens = {
            "alice": "alice-secret-0123456789",
            "bob": "bob-secret-0123456789",
            "rita": "rita-secret-0123456789",
        }
        with open(os.path.join(certs, "tokens"), "a", encoding="utf-8") as f:
            f.write("alice-secret-0123456789 alice submitter\n")
            f.write("bob-secret-0123456789 bob submitter\n")
            f.write("rita-secret-0123456789 rita reader\n")
        self.tls_port = self._start(
            "coordinator-tls",
            coordinator
            + [
                "--job-dir", self.path("jobs-tls"),
                "--tls-cert", os.path.join(certs, "coordinator.pem"),
                "--tls-key", os.path.join(certs, "coordinator.key"),
                "--tokens", os.path.join(certs, "tokens"),
            ],
        )
        self.tls_address = f"127.0.0.1:{self.tls_port}"

    def stop(self, keep: bool = False) -> None:
        for p in reversed(self.processes):
            p.stop()
        if not keep:
            shutil.rmtree(self.dir, ignore_errors=True)

    def logs(self) -> str:
        return "\n".join(f"--- {p.log}\n{p.tail()}" for p in self.processes)
