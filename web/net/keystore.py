"""What the host's browser keeps to prove, across reloads, that it is a table's host: the
table's DTLS certificate (`web.net.identity`: its fingerprint is pinned in the invite link)
and the ECDH key pair of the relay fallback (`web.net.relay_path`: its public key's hash is
pinned too). Both live in IndexedDB, the private halves never extractable. One of the few
modules allowed to touch the FFI.
"""

from __future__ import annotations

import asyncio
from typing import Any

import js
from pyodide.ffi import JsProxy, create_once_callable

from .browser import js_object

IDENTITY_DB, IDENTITY_STORE = "cribbage-identity", "keys"
FRESH_FOR_MS = 7 * 24 * 3600 * 1000     # a certificate this close to expiring is replaced


async def _idb(request: JsProxy) -> Any:
    """Await one IndexedDB request; its result (a JS object, or None), or an exception when it fails."""
    done: asyncio.Future[Any] = asyncio.get_event_loop().create_future()

    def succeeded(_event: JsProxy) -> None:
        if not done.done():
            done.set_result(request.result)

    def failed(_event: JsProxy) -> None:
        if not done.done():
            done.set_exception(RuntimeError(str(request.error)))
    request.onsuccess = create_once_callable(succeeded)
    request.onerror = create_once_callable(failed)
    if hasattr(request, "onupgradeneeded"):
        request.onupgradeneeded = create_once_callable(
            lambda _event: request.result.createObjectStore(IDENTITY_STORE))
    return await done


async def table_certificate(room: str) -> JsProxy:
    """The DTLS certificate this browser uses for hosting ``room``: kept in IndexedDB, so a
    reload presents the same identity; made (ECDSA P-256) the first time. Without IndexedDB
    (some private windows) it lives as long as the page, and the invite link with it."""
    async def made() -> JsProxy:
        certificate: JsProxy = await js.RTCPeerConnection.generateCertificate(
            js_object({"name": "ECDSA", "namedCurve": "P-256"}))
        return certificate
    try:
        db = await _idb(js.indexedDB.open(IDENTITY_DB, 1))
        stored: JsProxy | None = await _idb(db.transaction(IDENTITY_STORE).objectStore(IDENTITY_STORE).get(room))
        if stored is not None and stored.expires > js.Date.now() + FRESH_FOR_MS:
            return stored
        certificate = await made()
        await _idb(db.transaction(IDENTITY_STORE, "readwrite").objectStore(IDENTITY_STORE).put(certificate, room))
        return certificate
    except Exception as failed:   # no IndexedDB here: an identity for this page's life
        js.console.warn(f"the table's identity cannot be kept: {failed}")
        return await made()


async def forget_table(room: str) -> None:
    """Drop ``room``'s certificate and key pair (the host closed the table)."""
    try:
        db = await _idb(js.indexedDB.open(IDENTITY_DB, 1))
        for name in (room, f"{room}/ecdh"):
            await _idb(db.transaction(IDENTITY_STORE, "readwrite").objectStore(IDENTITY_STORE).delete(name))
    except Exception as failed:
        js.console.warn(f"the table's identity could not be removed: {failed}")


async def table_key_pair(room: str) -> JsProxy:
    """The ECDH key pair (P-256) this browser uses for ``room``'s relay fallback; kept like
    the certificate. Its private key cannot be exported, not even by this page."""
    async def made() -> JsProxy:
        pair: JsProxy = await js.crypto.subtle.generateKey(js_object({"name": "ECDH", "namedCurve": "P-256"}),
                                                           False, js_object(["deriveBits"]))
        return pair
    name = f"{room}/ecdh"
    try:
        db = await _idb(js.indexedDB.open(IDENTITY_DB, 1))
        stored: JsProxy | None = await _idb(db.transaction(IDENTITY_STORE).objectStore(IDENTITY_STORE).get(name))
        if stored is not None:
            return stored
        pair = await made()
        await _idb(db.transaction(IDENTITY_STORE, "readwrite").objectStore(IDENTITY_STORE).put(pair, name))
        return pair
    except Exception as failed:
        js.console.warn(f"the table's relay key cannot be kept: {failed}")
        return await made()
