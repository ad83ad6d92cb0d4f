"""Interaction callbacks and the interaction webhook (followups, @original) with the rules."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from aiohttp import web

from standin import limits as L
from standin import payloads
from standin.errors import ApiError, FormErrors
from standin.messaging import number_components
from standin.model import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Interaction,
    Message,
)
from standin.transport import API_PREFIX, Upload, json_response, no_content, read_body
from standin.validate import validate_choices, validate_modal

if TYPE_CHECKING:
    from standin.core import StandIn

# Which callback types each interaction type accepts (receiving-and-responding).
ALLOWED_CALLBACKS: dict[int, frozenset[int]] = {
    APPLICATION_COMMAND: frozenset({4, 5, 9}),
    MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    AUTOCOMPLETE: frozenset({8}),
    MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}


def _unknown_interaction() -> ApiError:
    return ApiError(404, L.Code.UNKNOWN_INTERACTION, "Unknown interaction")


def _unknown_webhook() -> ApiError:
    return ApiError(404, L.Code.UNKNOWN_WEBHOOK, "Unknown Webhook")


def _unknown_message() -> ApiError:
    return ApiError(404, L.Code.UNKNOWN_MESSAGE, "Unknown Message", violation=False)


class InteractionRoutes:
    """``/interactions/{id}/{token}/callback`` and ``/webhooks/{app}/{token}/...``."""

    def __init__(self, core: StandIn) -> None:
        self.core = core

    def register(self, router: web.UrlDispatcher) -> None:
        """Add the callback and webhook routes."""
        a = API_PREFIX
        hook = a + "/webhooks/{app_id}/{token}"
        router.add_post(a + "/interactions/{interaction_id}/{token}/callback", self.callback)
        router.add_post(hook, self.followup)
        router.add_get(hook + "/messages/{message_id}", self.get_webhook_message)
        router.add_patch(hook + "/messages/{message_id}", self.edit_webhook_message)
        router.add_delete(hook + "/messages/{message_id}", self.delete_webhook_message)

    async def callback(self, request: web.Request) -> web.Response:
        """The initial response: enforces the deadline, single ack and allowed types."""
        interaction = self.core.world.interactions.get(int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise _unknown_interaction()
        try:
            body, uploads = await read_body(request)
            return json_response(self._respond(interaction, body, uploads))
        except ApiError as error:
            interaction.errors.append(self.core.make_record(request, error))
            raise

    def _respond(
        self, it: Interaction, body: dict[str, Any], uploads: list[Upload]
    ) -> dict[str, Any]:
        core = self.core
        if it.dead:
            raise _unknown_interaction()
        if it.response_type is not None:
            raise ApiError(
                400, L.Code.ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        if core.clock() - it.created_at > core.ack_deadline:
            # Past the deadline Discord invalidates the token for good.
            it.dead = True
            raise _unknown_interaction()
        kind = body.get("type")
        data = body.get("data") or {}
        allowed = set(ALLOWED_CALLBACKS[it.type])
        if it.type == MODAL_SUBMIT and it.message is None:
            allowed.discard(7)  # A modal opened by a slash command has no message to update.
        if kind not in allowed:
            errors = FormErrors()
            choices = ", ".join(str(k) for k in sorted(allowed))
            errors.add(("type",), "BASE_TYPE_CHOICES", f"Value must be one of {{{choices}}}.")
            errors.raise_if_any()
        message: Message | None = None
        bot = core.bot_user
        if kind == 4:
            message = core.messaging.create(
                it.channel,
                bot,
                data,
                uploads,
                prefix=("data",),
                type=20 if it.type == APPLICATION_COMMAND else 0,
                interaction=it,
                allow_ephemeral=True,
            )
            it.response_message = message
        elif kind == 5:
            flags = int(data.get("flags") or 0)
            if flags & ~L.FLAG_EPHEMERAL:
                errors = FormErrors()
                errors.add(
                    ("data", "flags"), "INTERACTION_FLAGS_INVALID", "Only EPHEMERAL is allowed"
                )
                errors.raise_if_any()
            message = core.messaging.create(
                it.channel,
                bot,
                {"flags": flags},
                prefix=("data",),
                type=20 if it.type == APPLICATION_COMMAND else 0,
                interaction=it,
                allow_ephemeral=True,
                extra_flags=L.FLAG_LOADING,
            )
            it.response_message = message
            it.loading_pending = True
        elif kind == 7:
            assert it.message is not None
            message = core.messaging.edit(it.message, data, uploads, prefix=("data",))
        elif kind == 8:
            errors = FormErrors()
            validate_choices(data, errors)
            errors.raise_if_any()
            it.choices = list(data["choices"])
        elif kind == 9:
            errors = FormErrors()
            validate_modal(data, errors)
            errors.raise_if_any()
            it.modal = {**data, "components": number_components(data["components"])}
        it.response_type = kind
        it.acked.set()
        summary: dict[str, Any] = {
            "id": str(it.id),
            "type": it.type,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: dict[str, Any] = {"type": kind}
        if message is not None:
            summary["response_message_id"] = str(message.id)
            resource["message"] = payloads.message(message)
        elif kind == 6 and it.message is not None:
            summary["response_message_id"] = str(it.message.id)
        return {"interaction": summary, "resource": resource}

    def _interaction(self, request: web.Request) -> Interaction:
        """The interaction behind a webhook URL, applying token expiry (401 / 50027)."""
        core = self.core
        if request.match_info["app_id"] != str(core.application_id):
            raise _unknown_webhook()
        it = core.world.by_token.get(request.match_info["token"])
        if it is None:
            raise _unknown_webhook()
        if core.clock() - it.created_at > core.token_ttl:
            raise ApiError(401, L.Code.INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if it.dead or it.response_type is None or it.type == AUTOCOMPLETE:
            # Before the initial response (or after a missed deadline) the webhook does not exist.
            raise _unknown_webhook()
        return it

    def _target(self, it: Interaction, message_id: str) -> Message:
        if message_id == "@original":
            target = it.original
        else:
            candidates = [it.response_message, it.message, *it.followups]
            target = next(
                (m for m in candidates if m is not None and str(m.id) == message_id), None
            )
            if target is it.message and it.response_type not in (6, 7):
                target = None
        if target is None or target.deleted:
            raise _unknown_message()
        return target

    @contextmanager
    def _filed_on(self, request: web.Request, it: Interaction) -> Iterator[None]:
        """File any ApiError raised inside on the interaction record too."""
        try:
            yield
        except ApiError as error:
            it.errors.append(self.core.make_record(request, error))
            raise

    async def followup(self, request: web.Request) -> web.Response:
        """``POST /webhooks/{app}/{token}``: the first one after a type-5 defer edits the loader."""
        it = self._record_failure(request)
        body, uploads = await read_body(request)
        with self._filed_on(request, it):
            if it.response_type == 5 and it.loading_pending and it.response_message is not None:
                # The defer already fixed the ephemerality; the followup's flags do not change it.
                payload = {k: v for k, v in body.items() if k != "flags"}
                message = self.core.messaging.edit(
                    it.response_message, payload, uploads, finish_loading=True
                )
                it.loading_pending = False
            else:
                message = self.core.messaging.create(
                    it.channel,
                    self.core.bot_user,
                    body,
                    uploads,
                    interaction=it,
                    allow_ephemeral=True,
                )
                it.followups.append(message)
        if request.query.get("wait", "false").lower() in ("1", "true"):
            return json_response(payloads.message(message))
        return no_content()

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        """``GET .../messages/{id|@original}``."""
        it = self._record_failure(request)
        with self._filed_on(request, it):
            target = self._target(it, request.match_info["message_id"])
        return json_response(payloads.message(target))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        """``PATCH .../messages/{id|@original}``; editing a loading message completes the defer."""
        it = self._record_failure(request)
        body, uploads = await read_body(request)
        with self._filed_on(request, it):
            target = self._target(it, request.match_info["message_id"])
            finish = target is it.response_message and it.loading_pending
            self.core.messaging.edit(target, body, uploads, finish_loading=finish)
            if finish:
                it.loading_pending = False
        return json_response(payloads.message(target))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        """``DELETE .../messages/{id|@original}``."""
        it = self._record_failure(request)
        with self._filed_on(request, it):
            target = self._target(it, request.match_info["message_id"])
            if target is it.response_message:
                it.loading_pending = False
            self.core.messaging.delete(target)
        return no_content()

    def _record_failure(self, request: web.Request) -> Interaction:
        """``_interaction`` that also files the error on the interaction record when it fails."""
        try:
            return self._interaction(request)
        except ApiError as error:
            it = self.core.world.by_token.get(request.match_info["token"])
            if it is not None:
                it.errors.append(self.core.make_record(request, error))
            raise
