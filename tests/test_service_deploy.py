"""Scale-out: ``compose.yaml`` (N replicas behind Caddy) read and checked against the service,
and two real replicas that a client can hop between (the service is stateless)."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from deckcheck.service import Settings
from deckcheck.service.config import env_name
from tests.conftest import start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def compose() -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return doc


def test_compose_runs_replicas_of_the_containerfile_behind_the_proxy() -> None:
    services = compose()["services"]
    app, proxy = services["deckcheck"], services["proxy"]
    assert (ROOT / app["build"]["dockerfile"]).is_file()
    assert app["build"]["context"] == "."
    assert "ports" not in app  # only the proxy is reachable from outside
    assert app["expose"] == ["8000"]
    assert app["deploy"]["replicas"] >= 2
    known = {env_name(f.name) for f in fields(Settings)} | {"WORKERS"}
    assert set(app["environment"]) <= known, set(app["environment"]) - known
    assert proxy["depends_on"] == ["deckcheck"]
    mount = next(v for v in proxy["volumes"] if v.endswith(":/etc/caddy/Caddyfile:ro"))
    assert (ROOT / mount.split(":")[0]).is_file()
    containerfile = (ROOT / "Containerfile").read_text(encoding="utf-8")
    assert "EXPOSE 8000" in containerfile and "--port 8000" in containerfile
    assert "compose.yaml" in README and "--scale deckcheck=" in README


def seconds(text: str) -> float:
    return float(text.removesuffix("s"))


def test_the_proxy_configs_match_the_service() -> None:
    caddy = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    env = compose()["services"]["deckcheck"]["environment"]
    budget = float(env["DECKCHECK_COMPUTE_SECONDS"])
    assert re.search(r"dynamic a \{\s*name deckcheck\s*port 8000", caddy)
    assert "health_uri /healthz" in caddy
    timeout = re.search(r"response_header_timeout (\d+s)", caddy)
    from deckcheck.service.limit import BACKSTOP_FACTOR

    assert timeout and seconds(timeout.group(1)) > BACKSTOP_FACTOR * budget
    nginx = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    read = re.search(r"proxy_read_timeout (\d+s);", nginx)
    assert read and seconds(read.group(1)) > BACKSTOP_FACTOR * budget
    assert "http://deckcheck:8000" in nginx
    size = re.search(r"client_max_body_size (\d+)m;", nginx)
    assert size and int(size.group(1)) << 20 == Settings().max_batch_bytes


@pytest.mark.slow
def test_two_replicas_are_interchangeable() -> None:
    a, url_a = start_server()
    try:
        b, url_b = start_server()
        try:
            for path in ("/v1/cards/14558127", "/v1/formats", "/healthz"):
                ra, rb = httpx.get(url_a + path), httpx.get(url_b + path)
                assert ra.content == rb.content and ra.headers["etag"] == rb.headers["etag"]
                again = httpx.get(url_b + path, headers={"If-None-Match": ra.headers["etag"]})
                assert again.status_code == 304  # a client's cached copy is good at any replica
        finally:
            stop_server(b)
    finally:
        stop_server(a)
