"""HTTP plumbing: JSON responses, request bodies, the middleware, armed 429s, unknown routes."""

from __future__ import annotations

import fnmatch
import json
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from standin import limits as L
from standin.errors import ApiError

if TYPE_CHECKING:
    from standin.core import StandIn

API_PREFIX = f"/api/v{L.API_VERSION}"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with Content-Type exactly ``application/json``; discord.py reads others as text."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        content_type="application/json",
        headers=headers,
    )


def no_content() -> web.Response:
    """204 with no body."""
    return web.Response(status=204)


@dataclass(frozen=True)
class Upload:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[Upload]]:
    """Parse a JSON body, or multipart ``payload_json`` plus ``files[n]`` parts."""
    if request.content_type == "multipart/form-data":
        form = await request.post()
        uploads: list[Upload] = []
        payload: dict[str, Any] = {}
        for name, value in form.items():
            if name == "payload_json":
                raw = value.file.read() if isinstance(value, web.FileField) else value
                payload = _loads(raw if isinstance(raw, str) else raw.decode())
            elif isinstance(value, web.FileField) and name.startswith("files["):
                index = int(name[len("files[") : -1])
                uploads.append(
                    Upload(index, value.filename, value.file.read(), value.content_type or None)
                )
        return payload, sorted(uploads, key=lambda u: u.index)
    text = await request.text()
    if not text:
        return {}, []
    return _loads(text), []


def _loads(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        raise ApiError(
            400, L.Code.INVALID_JSON, "The request body contains invalid JSON."
        ) from None
    return value if isinstance(value, dict) else {"_list": value}


@dataclass
class RateLimitArm:
    """A driver-armed 429 for the next ``times`` matching requests."""

    method: str | None
    route: str | None
    times: int
    retry_after: float
    is_global: bool

    def matches(self, method: str, template: str, path: str) -> bool:
        """Match on method and on the route template or a glob of the concrete path."""
        if self.method is not None and self.method.upper() != method:
            return False
        if self.route is None:
            return True
        return self.route == template or fnmatch.fnmatchcase(path, self.route)


@dataclass
class ServerErrorArm:
    """A driver-armed 5xx for the next ``times`` matching requests; with ``after``, the request
    is carried out first (the message is created) and the answer is still the error."""

    method: str | None
    route: str | None
    times: int
    status: int
    after: bool

    def matches(self, method: str, template: str, path: str) -> bool:
        return RateLimitArm(self.method, self.route, 0, 0, False).matches(method, template, path)


def server_error_response(status: int) -> web.Response:
    return json_response({"message": f"{status}: Server Error", "code": 0}, status=status)


def rate_limited_response(arm: RateLimitArm, now: float) -> web.Response:
    """A 429 that discord.py retries: ``Via`` header, X-RateLimit-* headers, JSON body."""
    headers = {
        "Via": "1.1 google",
        "Retry-After": str(math.ceil(arm.retry_after)),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{now + arm.retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{arm.retry_after:.3f}",
        "X-RateLimit-Bucket": "standin-armed",
        "X-RateLimit-Scope": "global" if arm.is_global else "user",
    }
    if arm.is_global:
        headers["X-RateLimit-Global"] = "true"
    body = {
        "message": "You are being rate limited.",
        "retry_after": arm.retry_after,
        "global": arm.is_global,
    }
    return json_response(body, status=429, headers=headers)


def _needs_bot_auth(path: str) -> bool:
    # Interaction callbacks and webhook routes authenticate with the token in the URL.
    rest = path[len(API_PREFIX) :]
    return not rest.startswith(("/interactions/", "/webhooks/"))


def make_middleware(core: StandIn) -> Callable[..., Awaitable[web.StreamResponse]]:
    """Logging, armed 429s, bot-token auth and ApiError → Discord JSON error body."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        path = request.path
        core.requests.append(f"{request.method} {path}")
        if not path.startswith(API_PREFIX + "/"):
            return await handler(request)
        resource = request.match_info.route.resource
        template = resource.canonical[len(API_PREFIX) :] if resource is not None else path
        try:
            arm = core.take_rate_limit(request.method, template, path[len(API_PREFIX) :])
            if arm is not None:
                core.rate_limited.append(f"{request.method} {path}")
                return rate_limited_response(arm, core.clock())
            fault = core.take_server_error(request.method, template, path[len(API_PREFIX) :])
            if fault is not None and not fault.after:
                core.server_errors.append(f"{request.method} {path} -> {fault.status}")
                return server_error_response(fault.status)
            if (
                _needs_bot_auth(path)
                and request.headers.get("Authorization") != f"Bot {core.token}"
            ):
                raise ApiError(401, L.Code.GENERAL, "401: Unauthorized")
            response = await handler(request)
            if fault is not None:
                core.server_errors.append(f"{request.method} {path} -> done, then {fault.status}")
                return server_error_response(fault.status)
            return response
        except ApiError as error:
            core.record_error(request, error)
            return json_response(error.body(), status=error.status)
        except web.HTTPRequestEntityTooLarge:
            too_large = ApiError(413, L.Code.REQUEST_TOO_LARGE, "Request entity too large")
            core.record_error(request, too_large)
            return json_response(too_large.body(), status=413)

    return middleware


def unknown_route_handler(core: StandIn) -> Handler:
    """Catch-all: answer 404 loudly and remember the route for ``assert_clean``."""

    async def handler(request: web.Request) -> web.StreamResponse:
        core.unknown_routes.append(f"{request.method} {request.path}")
        body = {"message": f"404: Not Found (stand-in has no {request.method} {request.path})"}
        return json_response({**body, "code": 0}, status=404)

    return handler
