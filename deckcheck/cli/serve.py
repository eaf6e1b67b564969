"""``deckcheck serve``: run the HTTP API and the web deck builder under uvicorn."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from deckcheck.cli.common import clean, fail

if TYPE_CHECKING:
    from deckcheck.service.config import Settings


HostOpt = Annotated[str, typer.Option("--host", help="Address to listen on.")]
PortOpt = Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port.")]
WorkersOpt = Annotated[
    int,
    typer.Option(
        "--workers",
        "-w",
        min=1,
        max=256,
        help="Worker processes (each loads the data once; the app is stateless).",
    ),
]
CorsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--cors-origin",
        metavar="ORIGIN",
        help="Allow this origin by CORS (repeatable; '*' for any). Default: off.",
    ),
]
MaxBodyOpt = Annotated[
    int | None, typer.Option("--max-body-bytes", min=1, help="Largest request body (413).")
]
MaxCardsOpt = Annotated[
    int | None, typer.Option("--max-cards", min=1, help="Most cards per deck (422).")
]
MaxTrialsOpt = Annotated[
    int | None, typer.Option("--max-trials", min=1, help="Most trials per simulation (422).")
]
SimulationSecondsOpt = Annotated[
    float | None,
    typer.Option("--simulation-seconds", min=0.01, help="Time budget of a simulation (422)."),
]
ComputeSecondsOpt = Annotated[
    float | None,
    typer.Option(
        "--compute-seconds",
        min=0.01,
        help="CPU seconds per simulate/batch request (422 over it).",
    ),
]
MaxComputingOpt = Annotated[
    int | None,
    typer.Option(
        "--max-computing",
        min=1,
        help="simulate/batch requests at once per worker (429 beyond).",
    ),
]
LogLevelOpt = Annotated[
    str, typer.Option("--log-level", help="uvicorn log level: info, warning, error...")
]


def serve(
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
    workers: WorkersOpt = 1,
    cors_origin: CorsOpt = None,
    max_body_bytes: MaxBodyOpt = None,
    max_cards: MaxCardsOpt = None,
    max_trials: MaxTrialsOpt = None,
    simulation_seconds: SimulationSecondsOpt = None,
    compute_seconds: ComputeSecondsOpt = None,
    max_computing: MaxComputingOpt = None,
    log_level: LogLevelOpt = "info",
) -> None:
    """Serve the HTTP API (/v1/..., OpenAPI at /openapi.json, docs at /docs) and the web deck
    builder at /.

    Every limit is also read from DECKCHECK_* environment variables (README: "Service"); the
    options here win. Needs the 'service' extra: pip install 'deckcheck[service]'.
    """
    uvicorn = _import_uvicorn()
    settings = _settings(
        {
            "max_body_bytes": max_body_bytes,
            "max_cards": max_cards,
            "max_trials": max_trials,
            "simulation_seconds": simulation_seconds,
            "compute_seconds": compute_seconds,
            "max_computing": max_computing,
            "cors_origins": tuple(cors_origin) if cors_origin else None,
        }
    )
    _check_address(host, port)
    os.environ.update(settings.to_env())  # worker processes read the same settings
    sys.stderr.write(
        f"deckcheck: serving on http://{clean(host)}:{port}/ with {workers} worker(s); "
        "API docs at /docs\n"
    )
    _run(uvicorn, settings, host=host, port=port, workers=workers, log_level=log_level)


def _import_uvicorn() -> Any:
    """uvicorn, after checking the service imports (exit 2 without the 'service' extra)."""
    try:
        import uvicorn

        import deckcheck.service.app  # noqa: F401  (fails early without fastapi)
    except ImportError as exc:
        fail(
            f"the service needs the 'service' extra ({exc.name} is missing)",
            ["install with: pip install 'deckcheck[service]'"],
        )
    return uvicorn


def _settings(overrides: dict[str, Any]) -> Settings:
    """The settings from the environment, with the options given on the command line."""
    from dataclasses import replace

    from deckcheck.error import DeckcheckError
    from deckcheck.service.config import Settings

    try:
        settings = Settings.from_env()
    except DeckcheckError as exc:
        fail(str(exc))
    return replace(settings, **{k: v for k, v in overrides.items() if v is not None})


def _run(uvicorn: Any, settings: Any, **options: Any) -> None:
    """uvicorn with deckcheck's connection handler (header, body and keep-alive timeouts,
    header caps); with several workers, a SIGHUP reloads the data in every worker."""
    from deckcheck.service.protocol import Protocol

    config = uvicorn.Config(
        "deckcheck.service.app:app_from_env",
        factory=True,
        access_log=False,
        server_header=False,
        http=Protocol,
        timeout_keep_alive=settings.keep_alive_timeout,
        h11_max_incomplete_event_size=settings.max_header_bytes,
        **options,
    )
    server = uvicorn.Server(config)
    if config.workers > 1:
        import shutil
        import tempfile

        from deckcheck.service.state import SUPERVISOR_ENV, WORKERS_ENV, Supervisor

        folder = tempfile.mkdtemp(prefix="deckcheck-workers-")  # each worker's data, for /healthz
        os.environ[WORKERS_ENV] = folder
        os.environ[SUPERVISOR_ENV] = str(os.getpid())
        try:
            Supervisor(config, sockets=[config.bind_socket()]).run()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    else:
        server.run()


def _check_address(host: str, port: int) -> None:
    """Exit 2 with a clear message when ``host:port`` cannot be listened on (in use, bad host)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        fail(f"cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}")
    family, kind, proto, _, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        fail(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}",
            ["another server may be using the port; try --port"],
        )


def register(app: typer.Typer) -> None:
    """Add ``deckcheck serve`` to the main app."""
    app.command("serve")(serve)
