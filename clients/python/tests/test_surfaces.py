"""One file of games, every surface, the same records.

The shared Lichess file (37,221 games: every kind of ruling, disagreements,
records that cannot be replayed) ruled by

1. the command line, ``arbiter verify FILE --format jsonl``;
2. ``arbiter serve``'s HTTP API, ``POST /v1/verify`` with the file's bytes
   (zstd);
3. a coordinator's HTTP API (``arbiter-coordinator --http``, in front of
   this test's worker), ``POST /v1/verify``;
4. this client, ``Arbiter.verify(path)`` through that coordinator's gRPC
   port, each verdict's ``record()``.

Each game's record is the same everywhere: the same line, byte for byte,
from 1, 2 and 3 (so the same JSON), and a ``record()`` equal to it, key
order included. The summaries of 1, 2 and 3 are equal but for
``"seconds"``. The first differences are reported, each with its surface,
game, key and both values.

The processes (a worker, ``arbiter serve``, a coordinator) run on 127.0.0.1
with ephemeral ports, each with its own ``--job-dir`` in a temporary
directory, and are stopped when the test ends, passed or failed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
from typing import Any, Optional, Sequence

import loopback
from arbiter_client import Arbiter

LICHESS_GAMES = "games/lichess_jishanshaikh4_37221.pgn.zst"
GAMES = 37221
# serve's and the coordinator's --max-verify-mb (the largest POST /v1/verify
# body) default to 256 MB; the file is 11 MB.
MAX_VERIFY_MB = 256
# Differences reported in full (all are counted).
MAX_REPORTED = 12


class Daemon(loopback.Process):
    """A server with its output in LOG, in the command line's environment
    (no coordinator, Syzygy tables or TLS settings of the caller's)."""

    def __init__(self, argv: list[str], log: str) -> None:
        self.argv = argv
        self.log = log
        with open(log, "ab") as f:
            self.proc = subprocess.Popen(
                argv, stdout=f, stderr=f, stdin=subprocess.DEVNULL, env=loopback.cli_env()
            )


def http_request(
    url: str, body: Optional[bytes] = None, content_type: Optional[str] = None, timeout: float = 300
) -> tuple[int, str, bytes]:
    """One request to a loopback server, never through a proxy of the
    environment's: (status, Content-Type, body), error statuses included."""
    headers = {"Content-Type": content_type} if content_type else {}
    method = "POST" if body is not None else "GET"
    request = urllib.request.Request(url, data=body, headers=headers, method=method)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=timeout) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


def wait_until_healthy(base_url: str, p: loopback.Process, timeout: float = 60) -> None:
    """Polls BASE_URL/healthz until it answers 200; raises, with P's log,
    when P exits or TIMEOUT passes first."""
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline and p.proc.poll() is None:
        try:
            status, _, body = http_request(base_url + "/healthz", timeout=10)
            if status == 200:
                return
            last = f"{status} {body[:200]!r}"
        except OSError as e:
            last = str(e)
        time.sleep(0.05)
    raise RuntimeError(
        f"{p.argv[0]} is not healthy at {base_url} (exit {p.proc.poll()}, last answer: {last}):"
        f"\n{p.tail()}"
    )


def ndjson_lines(body: bytes) -> list[bytes]:
    """The lines of an NDJSON body (or of the command line's JSONL), without
    their newlines."""
    lines = body.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


def key_differences(mine: dict, theirs: dict) -> list[tuple[str, Any, Any]]:
    """(key, mine, theirs) for each top-level key whose values differ; a key
    one side lacks is "<absent>" there."""
    absent = "<absent>"
    keys = list(theirs) + [k for k in mine if k not in theirs]
    return [
        (k, mine.get(k, absent), theirs.get(k, absent))
        for k in keys
        if mine.get(k, absent) != theirs.get(k, absent)
    ]


class SurfacesTest(unittest.TestCase):
    def test_shared_lichess_file_is_the_same_on_every_surface(self) -> None:
        path = loopback.shared_file(self, LICHESS_GAMES)
        with open(path, "rb") as f:
            body = f.read()
        self.assertLess(len(body), MAX_VERIFY_MB << 20, f"{path} is over --max-verify-mb")

        work = tempfile.mkdtemp(prefix="arbiter-surfaces-")
        self.addCleanup(shutil.rmtree, work, True)  # last: after the processes are stopped
        self.processes: list[loopback.Process] = []
        try:
            self.rule_everywhere(work, path, body)
        except BaseException:
            print(f"\nlogs of the servers ({work}):", file=sys.stderr)
            for p in self.processes:
                print(f"--- {p.log}\n{p.tail()}", file=sys.stderr)
            raise

    def start(self, work: str, name: str, argv: list[str], port_files: Sequence[str]) -> list[int]:
        """Starts ARGV, its log in WORK/NAME.log, stopped (SIGTERM) when the
        test ends; the ports it writes to PORT_FILES."""
        p = Daemon(argv, os.path.join(work, name + ".log"))
        self.addCleanup(p.stop)
        self.processes.append(p)
        return [loopback.wait_for_port(f, p) for f in port_files]

    def post_verify(self, what: str, base_url: str, body: bytes) -> list[bytes]:
        """The NDJSON lines POST /v1/verify answers for BODY."""
        status, content_type, answer = http_request(
            base_url + "/v1/verify", body, "application/zstd", timeout=300
        )
        self.assertEqual(
            (status, content_type),
            (200, "application/x-ndjson"),
            f"{what}: POST /v1/verify answered {status} ({content_type}): {answer[:1000]!r}",
        )
        self.assertTrue(answer.endswith(b"\n"), f"{what}: the stream does not end with a newline")
        return ndjson_lines(answer)

    def rule_everywhere(self, work: str, path: str, body: bytes) -> None:
        bin_dir = loopback.binary_dir()
        tables = loopback.tables_dir()
        syzygy = ["--syzygy", loopback.syzygy_dir()] if loopback.syzygy_dir() else []
        seconds: dict[str, float] = {}

        # A worker and a coordinator with --http in front of it, as in
        # loopback.Cluster; serve with the same tables and threads.
        t = time.monotonic()
        worker = [
            os.path.join(bin_dir, "arbiter-worker"),
            "--listen", "127.0.0.1:0",
            "--port-file", os.path.join(work, "worker.port"),
            "--threads", "2",
            "--tables", tables,
            *syzygy,
        ]
        (worker_port,) = self.start(work, "worker", worker, [os.path.join(work, "worker.port")])
        coordinator = [
            os.path.join(bin_dir, "arbiter-coordinator"),
            "--listen", "127.0.0.1:0",
            "--http", "127.0.0.1:0",
            "--port-file", os.path.join(work, "coordinator.port"),  # and coordinator.port.http
            "--workers", f"127.0.0.1:{worker_port}",
            "--batch", "16",
            "--job-dir", os.path.join(work, "coordinator-jobs"),
        ]
        grpc_port, coordinator_port = self.start(
            work,
            "coordinator",
            coordinator,
            [os.path.join(work, "coordinator.port"), os.path.join(work, "coordinator.port.http")],
        )
        serve = [
            os.path.join(bin_dir, "arbiter"), "serve",
            "--http", "127.0.0.1:0",
            "--port-file", os.path.join(work, "serve.port"),
            "--jobs", "2",
            "--tables", tables,
            *syzygy,
            "--job-dir", os.path.join(work, "serve-jobs"),
        ]
        (serve_port,) = self.start(work, "serve", serve, [os.path.join(work, "serve.port")])
        urls = {
            "serve": f"http://127.0.0.1:{serve_port}",
            "coordinator": f"http://127.0.0.1:{coordinator_port}",
        }
        wait_until_healthy(urls["coordinator"], self.processes[1])
        wait_until_healthy(urls["serve"], self.processes[2])
        seconds["start"] = time.monotonic() - t

        # 1-3: the lines of the command line and of the two HTTP servers.
        lines: dict[str, list[bytes]] = {}
        t = time.monotonic()
        out = loopback.run_cli_bytes(["verify", path, "--tables", tables, "--format", "jsonl"])
        lines["cli"] = ndjson_lines(out)
        seconds["cli"] = time.monotonic() - t
        for name, url in urls.items():
            t = time.monotonic()
            lines[name] = self.post_verify(name, url, body)
            seconds[name] = time.monotonic() - t

        # 4: the client, through the same coordinator's gRPC port.
        t = time.monotonic()
        with Arbiter(f"127.0.0.1:{grpc_port}") as arbiter:
            client = [v.record() for v in arbiter.verify(path)]
        seconds["client"] = time.monotonic() - t

        t = time.monotonic()
        try:
            self.compare(lines, client)
        finally:
            seconds["compare"] = time.monotonic() - t
            print(
                f"\n{os.path.basename(path)} on every surface: "
                + ", ".join(f"{k} {v:.1f} s" for k, v in seconds.items()),
                file=sys.stderr,
            )

    def compare(self, lines: dict[str, list[bytes]], client: list[dict]) -> None:
        """Fails, with the first differences, unless LINES (the command
        line's, "serve"'s and "coordinator"'s) are the same lines and CLIENT
        (the records of record()) the same records."""
        reported: list[str] = []
        counted: dict[str, int] = {}

        def differ(surface: str, text: str) -> None:
            counted[surface] = counted.get(surface, 0) + 1
            if len(reported) < MAX_REPORTED:
                reported.append(text)

        def describe(surface: str, what: str, mine: dict, theirs: dict) -> bool:
            """Reports how MINE differs from the command line's THEIRS as an
            object (its values, then its keys' order); False if it does not."""
            if mine != theirs:
                for key, a, b in key_differences(mine, theirs):
                    differ(surface, f"{what}, key {key!r}: {surface} {short(a)} != cli {short(b)}")
                return True
            if list(mine) != list(theirs):
                differ(
                    surface, f"{what}: keys in another order: {list(mine)} != cli {list(theirs)}"
                )
                return True
            return False

        # Each stream's last line is its summary (a stream cut by a failure
        # ends with a "failure" line instead).
        games: dict[str, list[bytes]] = {}
        summaries: dict[str, dict] = {}
        for name, stream in lines.items():
            self.assertTrue(stream, f"{name}: no lines")
            last = json.loads(stream[-1])
            self.assertEqual(last.get("type"), "summary", f"{name}: the last line: {short(last)}")
            summaries[name] = last
            games[name] = stream[:-1]

        counts = {name: len(g) for name, g in games.items()}
        counts["client"] = len(client)
        if set(counts.values()) != {GAMES}:
            differ("count", f"game records: {counts}, {GAMES} expected")

        # The command line's records, parsed. A line of serve's or the
        # coordinator's with the same bytes is the same JSON; one with other
        # bytes is parsed to say which keys differ (parsing every stream
        # whole would add seconds, not checks).
        cli = [json.loads(line) for line in games["cli"]]
        self.assertEqual(
            [r.get("game") for r in cli], list(range(1, len(cli) + 1)), "cli: the games' numbers"
        )
        for i, theirs in enumerate(cli):
            what = f"game {theirs['game']}"
            cli_line = games["cli"][i]
            for name in ("serve", "coordinator"):
                if i >= len(games[name]) or games[name][i] == cli_line:
                    continue
                line = games[name][i]
                if not describe(name, what, json.loads(line), theirs):
                    at = next(
                        (k for k, (a, b) in enumerate(zip(line, cli_line)) if a != b),
                        min(len(line), len(cli_line)),
                    )
                    lo, hi = max(0, at - 40), at + 80
                    differ(
                        name,
                        f"{what}: the same JSON in other bytes, from byte {at}: "
                        f"{name} {line[lo:hi]!r} != cli {cli_line[lo:hi]!r}",
                    )
            if i < len(client):
                describe("client", f"{what} (record())", client[i], theirs)

        summary = {k: v for k, v in summaries["cli"].items() if k != "seconds"}
        for name, s in summaries.items():
            self.assertIsInstance(s.get("seconds"), (int, float), f"{name}: the summary's seconds")
            if name != "cli":
                describe(name, "summary", {k: v for k, v in s.items() if k != "seconds"}, summary)

        if counted:
            self.fail(
                "the surfaces differ ("
                + ", ".join(f"{k}: {v} differences" for k, v in counted.items())
                + "); the first:\n  "
                + "\n  ".join(reported)
            )


if __name__ == "__main__":
    unittest.main()
