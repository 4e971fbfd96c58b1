"""The Arbiter client: a gRPC channel to ``arbiter-coordinator`` and typed calls."""

from __future__ import annotations

import os
import time
from typing import Any, Callable, Generator, Iterable, Iterator, Optional, Sequence, Union

import grpc

import arbiter
from arbiter import _inputs
from arbiter._inputs import GameSource
from arbiter.records import MateRecord
from arbiter.v1 import arbiter_pb2 as _api
from arbiter.v1 import arbiter_pb2_grpc as _grpc
from arbiter.v1 import verdict_pb2 as _pb

from .results import Assessment, Job, JobState, Rules, Side, Verdict, _ability_record

__all__ = ["Arbiter", "ArbiterError", "Jobs", "VerdictStream", "GameSource"]

# GameSource, what ``verify`` and ``jobs.submit`` read, is arbiter's: a path
# (``str`` without a line break or ``[``, or ``os.PathLike``), PGN text
# (``str`` with a line break or starting with ``[``), the file's bytes (PGN
# or zstd-compressed PGN), or a binary file object; the in-process
# ``Engine.verify`` reads the same.

# Bytes per UploadJob message: far below the coordinator's message limit,
# large enough that per-message costs do not matter.
_CHUNK = 1 << 20


class ArbiterError(arbiter.Error):
    """A call the coordinator refused or could not complete.

    ``code`` is the gRPC status code (``grpc.StatusCode``), ``message`` the
    coordinator's words. INVALID_ARGUMENT: input that cannot be ruled on (a
    bad FEN, an illegal move, an option out of range); UNAUTHENTICATED: no
    valid bearer token; NOT_FOUND: an unknown job; FAILED_PRECONDITION:
    tablebase probes on a cluster without tables; RESOURCE_EXHAUSTED: over a
    limit; UNAVAILABLE: no coordinator or no worker answers. A job that ends
    FAILED or CANCELLED while ``verify`` reads it raises ABORTED.

    An ``arbiter.Error``, as the in-process Engine's errors: ``status`` is
    the code's name in lower case ("invalid_argument", "not_found", ...,
    the C API's words where they share a meaning).
    """

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        Exception.__init__(self, f"{code.name}: {message}")
        self.status = code.name.lower()
        self.code = code
        self.message = message

    @classmethod
    def _from_rpc(cls, e: grpc.RpcError) -> "ArbiterError":
        code = e.code() if hasattr(e, "code") else grpc.StatusCode.UNKNOWN
        details = e.details() if hasattr(e, "details") else str(e)
        return cls(code or grpc.StatusCode.UNKNOWN, details or "")


def _side(side: Union[Side, str, bool, None]) -> Any:  # arbiter.v1.Color
    if side is None:
        return _pb.COLOR_UNSPECIFIED
    # python-chess's colours (chess.WHITE is True) or the words, as the Engine.
    return Side(_inputs.side(side))._to_proto()


def _options(
    budget: Optional[int], tablebase: bool, rules: Union[Rules, str, None], table_mb: Optional[int]
) -> _pb.SearchOptions:
    o = _pb.SearchOptions(tablebase=bool(tablebase))
    if budget is not None:
        if budget < 1:
            raise ValueError("budget must be at least 1 (None: the coordinator's default)")
        o.budget = int(budget)
    if table_mb is not None:
        if table_mb < 1:
            raise ValueError("table_mb must be at least 1 (None: the default)")
        o.table_mb = int(table_mb)
    if rules is not None:
        o.rules = Rules(rules)._to_proto()
    return o


class Arbiter:
    """A connection to an Arbiter coordinator (``arbiter-coordinator``).

    ``Arbiter("host:port")`` talks plain gRPC. ``tls_ca`` (a PEM file: the CA
    that signed the coordinator's certificate) turns TLS on; ``token`` or
    ``token_file`` (a file holding one token on one line) is then sent with
    every call as ``authorization: Bearer <token>``. A token needs TLS: the
    coordinator accepts tokens only over TLS, and the client refuses to send
    one in the clear.

    ``timeout`` (seconds) bounds every unary call. ``stream_timeout``
    (seconds, None: no bound) bounds each streaming call (an upload, a job's
    results, a watch) as a whole. Whatever the call, a coordinator that stops
    answering (its process stalled, its machine gone, the network cut) fails
    it with UNAVAILABLE within ``stall_timeout`` seconds (default 20, at
    least 2): the channel pings the coordinator every ``stall_timeout / 2``
    seconds while a call is open and gives up when a ping goes unanswered for
    as long, and a connection attempt that gets no answer ends as soon.
    ``tls_server_name`` checks the certificate against that name instead of
    the target's host.

    Use as a context manager, or call ``close()``, to release the channel.
    """

    def __init__(
        self,
        target: str,
        tls_ca: Union[str, "os.PathLike[str]", None] = None,
        token: Optional[str] = None,
        token_file: Union[str, "os.PathLike[str]", None] = None,
        *,
        timeout: Optional[float] = None,
        stream_timeout: Optional[float] = None,
        stall_timeout: float = 20.0,
        tls_server_name: Optional[str] = None,
        channel_options: Sequence[tuple[str, Any]] = (),
    ) -> None:
        if stall_timeout < 2:
            raise ValueError("stall_timeout must be at least 2 seconds")
        if token is not None and token_file is not None:
            raise ValueError("give token or token_file, not both")
        if token_file is not None:
            with open(token_file, encoding="utf-8") as f:
                token = f.read().strip()
            if not token or "\n" in token or "\r" in token:
                raise ValueError(
                    f"token file {os.fspath(token_file)}: expected one token on one line"
                )
        elif token is not None:
            token = token.strip()
            if not token:
                raise ValueError("empty token")
        # Keepalive pings while a call is open, without waiting for data to
        # be sent (a results stream sends none); the coordinator accepts
        # pings this often (common/serving.cc). The connection attempt is
        # bounded the same way: a coordinator that accepts the TCP
        # connection but never answers is a stall too.
        half = int(stall_timeout * 500)
        options = [
            ("grpc.keepalive_time_ms", half),
            ("grpc.keepalive_timeout_ms", half),
            ("grpc.keepalive_permit_without_calls", 0),
            ("grpc.http2.max_pings_without_data", 0),
            ("grpc.min_reconnect_backoff_ms", int(stall_timeout * 1000)),
            *channel_options,
        ]
        if tls_ca is None:
            if token is not None:
                raise ValueError(
                    "a token needs TLS: give tls_ca, "
                    "the CA that signed the coordinator's certificate"
                )
            self._channel = grpc.insecure_channel(target, options=options)
        else:
            with open(tls_ca, "rb") as f:
                credentials = grpc.ssl_channel_credentials(root_certificates=f.read())
            if token is not None:
                credentials = grpc.composite_channel_credentials(
                    credentials, grpc.access_token_call_credentials(token)
                )
            if tls_server_name:
                options.append(("grpc.ssl_target_name_override", tls_server_name))
            self._channel = grpc.secure_channel(target, credentials, options=options)
        self.target = target
        self._timeout = timeout
        self._stream_timeout = stream_timeout
        self._stub = _grpc.ArbiterStub(self._channel)
        #: The coordinator's background jobs.
        self.jobs = Jobs(self)

    def close(self) -> None:
        """Closes the channel; calls in progress end CANCELLED."""
        self._channel.close()

    def __enter__(self) -> "Arbiter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Arbiter({self.target!r})"

    def _unary(self, method: Callable[..., Any], request: Any) -> Any:
        try:
            return method(request, timeout=self._timeout)
        except grpc.RpcError as e:
            raise ArbiterError._from_rpc(e) from None

    # -- positions ------------------------------------------------------

    def analyze(
        self,
        position: Any,
        moves: Iterable[str] = (),
        side: Union[Side, str, bool, None] = None,
        budget: Optional[int] = None,
        tablebase: bool = False,
        chess960: bool = False,
        *,
        rules: Union[Rules, str, None] = None,
        claim: Optional[str] = None,
        claimant: Union[Side, str, bool, None] = None,
        claimed: Optional[str] = None,
        table_mb: Optional[int] = None,
    ) -> Assessment:
        """How a position stands and whether each side can still mate.

        ``position`` is a FEN, or a python-chess ``Board``: its starting
        position and its move stack are sent, so that the repetition history
        goes along (and a Chess960 board sets ``chess960``), or another
        object with ``.fen()``. ``moves`` (UCI) are played from the position
        first. ``side`` ("white", "black", a ``Side``, or python-chess's
        True/False): only that side's mate ability is searched (can the side
        with time left still mate?). ``budget``: positions per side for the
        mate search (None: the coordinator's default). ``tablebase``: probe
        the coordinator's Syzygy tables (FAILED_PRECONDITION without them).
        ``rules``: "chess" (or "fide", the default), "uscf", "iccf" or
        "chess99" (a FEN-9 position; the answer is in ``raw.chess99`` and
        ``record()``). ``claim`` judges a claim at the position, one of the
        rules': "quickplay_finish" (FIDE), "insufficient_losing_chances"
        (``rules="uscf"``) or "tablebase_claim" (``rules="iccf"``), by
        ``claimant`` (default: the side to move), claiming ``claimed``
        ("draw", the default, or "win" for a tablebase claim).

        Raises ArbiterError (INVALID_ARGUMENT for a bad FEN or an illegal
        move).
        """
        fen, history, board_chess960 = _inputs.position(position)
        request = _api.AnalyzeRequest(
            fen=fen,
            moves=history + _inputs.moves(moves),
            chess960=chess960 or board_chess960,
            side=_side(side),
            options=_options(budget, tablebase, rules, table_mb),
        )
        if claim is not None:
            request.claim.kind = _pb.ClaimKind.Value("CLAIM_KIND_" + claim.upper())
            request.claim.claimant = _side(claimant)
            if claimed is not None:
                outcome = "CLAIMED_OUTCOME_" + claimed.upper()
                request.claim.claimed = _pb.ClaimedOutcome.Value(outcome)
        elif claimant is not None or claimed is not None:
            raise ValueError("claimant and claimed need a claim")
        return Assessment.from_proto(self._unary(self._stub.Analyze, request))

    def can_mate(
        self, position: Any, color: Union[Side, str, bool], budget: Optional[int] = None
    ) -> MateRecord:
        """Can ``color`` still checkmate from ``position``? The dictionary
        ``arbiter.Engine.can_mate`` returns (``{"can_mate": "yes"|"no"|
        "unknown", "proof": ..., "line": [...], "line_san": [...]}``), the
        object ``arbiter analyze --json`` writes for that side; ``position``
        and ``color`` as there."""
        a = self.analyze(position, side=color, budget=budget)
        return _ability_record(a.raw.white if a.only_side is Side.WHITE else a.raw.black)

    def assess(
        self, position: Any, moves: Optional[Iterable[str]] = None, budget: Optional[int] = None
    ) -> dict[str, Any]:
        """The record ``arbiter analyze --json`` writes for the position
        after ``moves``: the dictionary ``arbiter.Engine.assess`` returns
        (``analyze(...).record()``)."""
        return self.analyze(position, moves or (), budget=budget).record()

    # -- games ----------------------------------------------------------

    def verify(
        self,
        source: GameSource,
        budget: Optional[int] = None,
        tablebase: bool = False,
        rules: Union[Rules, str, None] = None,
        *,
        keep_job: bool = False,
        name: Optional[str] = None,
        table_mb: Optional[int] = None,
    ) -> "VerdictStream":
        """Rules on every game of a PGN file: one Verdict per game, in input order.

        ``source``: a path, PGN text, bytes (PGN or zstd-compressed PGN) or a
        binary file (see GameSource). The file is uploaded as a job
        (UploadJob), which the coordinator reads with its own PGN reader, and
        the verdicts are streamed back as they are ruled (GetJobResults). A
        record that cannot be read or replayed is a Verdict with ``error``
        set, not an exception. Once every verdict is read, or the iteration
        stops early, the job is deleted (cancelled first if still running)
        unless ``keep_job``; ``.job`` of the returned stream names it. Being a
        job, it needs a submitter's or an admin's token on a coordinator whose
        tokens have roles (a reader's gets PERMISSION_DENIED; docs/security.md).

        ``rules``: "chess" (the default), "uscf" or "iccf"; "chess99" judges
        games without a ``[Variant]`` tag as Chess 99 games. Nothing is sent
        until the iteration starts.
        """
        options = _options(budget, tablebase, rules, table_mb)
        return VerdictStream(self, source, options, keep_job, name)

    def _upload(self, source: GameSource, options: _pb.SearchOptions, name: Optional[str]) -> Job:
        shown, stream, close = _inputs.open_source(source)

        def requests() -> Iterator[_api.UploadJobRequest]:
            first: Optional[_api.UploadJobRequest] = _api.UploadJobRequest(
                name=name or shown, options=options
            )
            while True:
                data = stream.read(_CHUNK)
                if first is not None:
                    first.data = data or b""
                    yield first
                    first = None
                elif data:
                    yield _api.UploadJobRequest(data=data)
                if not data:
                    return

        try:
            # A stream: as long as the file takes to send, not `timeout`.
            return Job.from_proto(self._stub.UploadJob(requests(), timeout=self._stream_timeout))
        except grpc.RpcError as e:
            raise ArbiterError._from_rpc(e) from None
        finally:
            if close:
                stream.close()

    def _results(self, job_id: str, first_game: int = 0, follow: bool = True) -> Iterator[Verdict]:
        request = _api.GetJobResultsRequest(id=job_id, first_game=first_game, follow=follow)
        try:
            for v in self._stub.GetJobResults(request, timeout=self._stream_timeout):
                yield Verdict.from_proto(v)
        except grpc.RpcError as e:
            raise ArbiterError._from_rpc(e) from None


class VerdictStream(Iterator[Verdict]):
    """The verdicts of ``Arbiter.verify``, in input order.

    Iterating uploads the games on the first step. ``job`` is the job once it
    exists (None before), ``close()`` stops early (and deletes the job unless
    it is kept); so does leaving a ``with`` block.
    """

    def __init__(
        self,
        arbiter: Arbiter,
        source: GameSource,
        options: _pb.SearchOptions,
        keep_job: bool,
        name: Optional[str],
    ) -> None:
        self.job: Optional[Job] = None
        self._arbiter = arbiter
        self._gen: Generator[Verdict, None, None] = self._run(source, options, keep_job, name)

    def __iter__(self) -> "VerdictStream":
        return self

    def __next__(self) -> Verdict:
        return next(self._gen)

    def close(self) -> None:
        """Stops reading; the job is cancelled and deleted unless kept."""
        self._gen.close()

    def __enter__(self) -> "VerdictStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(
        self, source: GameSource, options: _pb.SearchOptions, keep_job: bool, name: Optional[str]
    ) -> Generator[Verdict, None, None]:
        arbiter = self._arbiter
        self.job = arbiter._upload(source, options, name)
        job_id = self.job.id
        read = 0
        try:
            # The stream follows the running job and ends when it does; one
            # that ends early (a coordinator restart resumes the job) is
            # taken up again from the next game.
            while True:
                before = read
                for verdict in arbiter._results(job_id, read + 1):
                    read += 1
                    yield verdict
                self.job = arbiter.jobs.get(job_id)
                if self.job.state is JobState.RUNNING or read < self.job.games_done:
                    if read == before:
                        time.sleep(0.5)
                    continue
                if self.job.state is not JobState.DONE:
                    raise ArbiterError(
                        grpc.StatusCode.ABORTED,
                        f"job {job_id} {self.job.state.value if self.job.state else 'ended'}"
                        + (f": {self.job.error}" if self.job.error else ""),
                    )
                return
        finally:
            if not keep_job:
                self._discard(job_id)

    def _discard(self, job_id: str) -> None:
        jobs = self._arbiter.jobs
        try:
            if jobs.get(job_id).state is JobState.RUNNING:
                jobs.cancel(job_id)
                # A cancelled job is removable once its run has stopped.
                for job in jobs.watch(job_id):
                    if job.state is not JobState.RUNNING:
                        break
            jobs.delete(job_id)
        except ArbiterError:
            pass  # best effort: the coordinator's --job-retention removes it later


class Jobs:
    """The coordinator's background jobs (``arbiter.jobs``): durable across
    coordinator restarts, read back by id."""

    def __init__(self, arbiter: Arbiter) -> None:
        self._arbiter = arbiter

    def submit(
        self,
        source: GameSource,
        budget: Optional[int] = None,
        tablebase: bool = False,
        rules: Union[Rules, str, None] = None,
        *,
        name: Optional[str] = None,
        table_mb: Optional[int] = None,
    ) -> Job:
        """Uploads games (see GameSource) as a job and returns it, running."""
        return self._arbiter._upload(source, _options(budget, tablebase, rules, table_mb), name)

    def get(self, job_id: str) -> Job:
        """The job now (NOT_FOUND for an unknown id)."""
        a = self._arbiter
        return Job.from_proto(a._unary(a._stub.GetJob, _api.GetJobRequest(id=job_id)))

    def list(self, limit: int = 100) -> list[Job]:
        """The newest jobs first."""
        a = self._arbiter
        response = a._unary(a._stub.ListJobs, _api.ListJobsRequest(limit=limit))
        return [Job.from_proto(j) for j in response.jobs]

    def results(self, job_id: str, first_game: int = 1, follow: bool = True) -> Iterator[Verdict]:
        """The job's verdicts in input order from ``first_game`` (1-based) on;
        with ``follow`` (the default) the stream follows a running job and
        ends when it does, without it it ends after those committed now."""
        return self._arbiter._results(job_id, first_game, follow)

    def watch(self, job_id: str) -> Iterator[Job]:
        """The job now, then at every change of progress until it ends."""
        try:
            a = self._arbiter
            for j in a._stub.WatchJob(_api.WatchJobRequest(id=job_id), timeout=a._stream_timeout):
                yield Job.from_proto(j)
        except grpc.RpcError as e:
            raise ArbiterError._from_rpc(e) from None

    def cancel(self, job_id: str) -> Job:
        """Stops a running job (its verdicts so far stay readable)."""
        a = self._arbiter
        return Job.from_proto(a._unary(a._stub.CancelJob, _api.CancelJobRequest(id=job_id)))

    def delete(self, job_id: str) -> None:
        """Removes an ended job, its verdicts and its upload
        (FAILED_PRECONDITION while it runs: cancel it first)."""
        a = self._arbiter
        a._unary(a._stub.DeleteJob, _api.DeleteJobRequest(id=job_id))
