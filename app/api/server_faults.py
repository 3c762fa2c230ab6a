"""Problem documents for what gunicorn refuses before the app sees a request.

gunicorn reads each request's line and headers itself. A fault there (a request line or a
header over its limit, a header that is not HTTP, a body length that can be read two ways)
never reaches the app: gunicorn answers it with an HTML page of its own. The workers below
answer it as the app answers its own errors, `application/problem+json` with a stable `code`
(app/service/problems.py), and then close the connection. A request whose line and headers
arrive whole and valid goes to the app exactly as before: this code runs only on the error
path.

Under gevent a request's line and headers must arrive within `keepalive` seconds; gunicorn
then drops the connection without a word. Here a connection where part of a request has
arrived is answered `408 request_timeout` first; one where nothing has arrived (an idle
keep-alive connection, or a client that connected and sent nothing) is closed as before, since
a client that sends its next request just then would read the 408 as that request's answer.

gunicorn.conf.py gives gunicorn these workers for `GUNICORN_WORKER_CLASS` gevent (the
default), sync and gthread.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import gevent
from gunicorn import util
from gunicorn.http import errors
from gunicorn.http.message import Request
from gunicorn.workers import ggevent, gthread, sync

from app.service.problems import PROBLEM_MEDIA_TYPE, problem_body, problem_payload

__all__ = ["Fault", "GeventWorker", "HeadersTimeout", "SyncWorker",
           "ThreadWorker", "fault_of", "problem_response_bytes"]

# At most this much of a refused request line or header is echoed back in `detail`.
ECHOED = 80


@dataclass(frozen=True)
class Fault:
    """What to answer a refused request: its problem `code`, and `status` when it is not the
    code's own."""

    code: str
    detail: str
    status: int | None = None


class HeadersTimeout(Exception):
    """Raised into a gevent connection whose request line and headers have not arrived whole
    within `keepalive` seconds."""


def _echo(text: object) -> str:
    shown = str(text)
    return repr(shown if len(shown) <= ECHOED else shown[:ECHOED] + "...")


def _header_names(req: Any) -> list[str]:
    return [name for name, _ in getattr(req, "headers", None) or ()]


def _invalid_header(exc: errors.InvalidHeader) -> Fault:
    """gunicorn raises `InvalidHeader` for a malformed header and, naming Content-Length or
    Transfer-Encoding, for a body whose length cannot be read one way only."""
    names = _header_names(exc.req)
    if exc.hdr == "CONTENT-LENGTH" and names.count("CONTENT-LENGTH") > 1:
        return Fault("duplicate_content_length",
                     "The request has more than one Content-Length header, so its body's "
                     "length is not certain. Send exactly one.")
    if exc.hdr == "CONTENT-LENGTH" and "TRANSFER-ENCODING" in names:
        return Fault("content_length_with_transfer_encoding",
                     "The request has both Content-Length and Transfer-Encoding: chunked, so "
                     "its body's length can be read two ways. Send one of them: Content-Length "
                     "for a body sent whole, or chunked without Content-Length.")
    if exc.hdr == "CONTENT-LENGTH":
        return Fault("invalid_header",
                     "The request's Content-Length is not a number of bytes (digits only).")
    if exc.hdr == "TRANSFER-ENCODING":
        return Fault("invalid_header",
                     "The request's Transfer-Encoding cannot be read: `chunked` may be given "
                     "once, last, and only in HTTP/1.1.")
    return Fault("invalid_header", f"A header field is not valid HTTP: {_echo(exc.hdr)}.")


def fault_of(exc: BaseException, cfg: Any) -> Fault | None:
    """The problem for a request gunicorn's parser refused with `exc` (its limits in `cfg`);
    None for anything else."""
    if isinstance(exc, errors.LimitRequestLine):
        return Fault("request_line_too_long",
                     f"The request line (method, path and query) is longer than the server's "
                     f"limit of {exc.max_size} bytes. Send a shorter path: the request's data "
                     "goes in its body.")
    if isinstance(exc, errors.LimitRequestHeaders):
        if str(exc) == "limit request headers fields":
            return Fault("too_many_headers",
                         f"The request has more header fields than the server's limit of "
                         f"{cfg.limit_request_fields}. Send fewer.")
        return Fault("header_too_large",
                     f"A header field of the request is longer than the server's limit of "
                     f"{cfg.limit_request_field_size} bytes, or all of them together are too "
                     "large. Send shorter headers.")
    if isinstance(exc, errors.InvalidHeader):
        return _invalid_header(exc)
    if isinstance(exc, errors.InvalidHeaderName | errors.ObsoleteFolding):
        return Fault("invalid_header", f"A header field is not valid HTTP: {_echo(exc.hdr)}.")
    if isinstance(exc, errors.InvalidSchemeHeaders):
        return Fault("invalid_header",
                     "The request's headers name two different schemes (http and https).")
    if isinstance(exc, errors.UnsupportedTransferCoding):
        return Fault("unsupported_transfer_coding",
                     f"The transfer coding {_echo(exc.hdr)} is not supported. Send the body "
                     "with Content-Length, or with Transfer-Encoding: chunked.")
    if isinstance(exc, errors.InvalidHTTPVersion) and isinstance(exc.version, tuple):
        major, minor = exc.version
        return Fault("http_version_not_supported",
                     f"HTTP/{major}.{minor} is not supported. Send HTTP/1.1 (or HTTP/1.0).")
    if isinstance(exc, errors.InvalidRequestLine | errors.InvalidRequestMethod
                  | errors.InvalidHTTPVersion):
        return Fault("invalid_request_line",
                     f"The request line is not valid HTTP ({exc}): send `METHOD /path "
                     "HTTP/1.1`, the method in capitals.")
    if isinstance(exc, errors.ParseException) and not isinstance(exc,
                                                                 errors.ConfigurationProblem):
        # A PROXY protocol line (the service does not turn that protocol on).
        return Fault("http_error", f"The request was refused: {exc}.",
                     status=getattr(exc, "code", 400))
    return None


def problem_response_bytes(fault: Fault) -> bytes:
    """The whole HTTP response for `fault`: its problem document, and `Connection: close`."""
    body = problem_body(fault.code, fault.detail, status=fault.status)
    payload = problem_payload(body, None)
    status = HTTPStatus(body["status"])
    head = (f"HTTP/1.1 {status.value} {status.phrase}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_MEDIA_TYPE}\r\nContent-Length: {len(payload)}\r\n\r\n")
    return head.encode("ascii") + payload


def _request_begun(exc: BaseException) -> bool:
    """Whether part of a request had arrived when `exc` cut short the reading of its line
    and headers. What has arrived is only in the parser's locals (`Request.parse`: `buf`, the
    bytes not yet parsed, and `self`, whose `method` is set once the request line is read):
    the traceback still holds them."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is Request.parse.__code__:
            found = tb.tb_frame.f_locals
            buf, req = found.get("buf"), found.get("self")
            return ((isinstance(buf, io.BytesIO) and bool(buf.getvalue()))
                    or getattr(req, "method", None) is not None)
        tb = tb.tb_next
    return False


class ProblemAnswers:
    """A gunicorn worker that answers what gunicorn's parser refuses as a problem document."""

    cfg: Any
    log: Any

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        ip = (addr or ("",))[0]
        fault: Fault | None
        if isinstance(exc, HeadersTimeout):
            if not _request_begun(exc):
                return  # nothing of a request came: closed without a word, as gunicorn does
            self.log.info("Request headers not complete within %s s from ip=%s",
                          self.cfg.keepalive, ip)
            fault = Fault("request_timeout",
                          f"The request's line and headers did not arrive whole within the "
                          f"server's limit of {self.cfg.keepalive} s, so the connection is "
                          "closed. Send the whole request at once.")
        else:
            fault = fault_of(exc, self.cfg)
            if fault is None and not isinstance(exc, Exception):
                # The worker stopping its greenlets or threads: gunicorn's own handling.
                super().handle_error(req, client, addr, exc)  # type: ignore[misc]
                return
            if fault is None:
                self.log.exception("Error handling request %s", getattr(req, "uri", ""))
                fault = Fault("internal_error",
                              "The server failed while handling the request.")
            else:  # gunicorn's own line for a refused request
                self.log.warning("Invalid request from ip=%s: %s", ip, exc)
        try:
            util.write_nonblock(client, problem_response_bytes(fault))
        except OSError:
            self.log.debug("Failed to send error message.")


class GeventWorker(ProblemAnswers, ggevent.GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker, whose wait for a request's headers ends in `HeadersTimeout`
    rather than in silence."""

    def timeout_ctx(self) -> gevent.Timeout:
        return gevent.Timeout(self.cfg.keepalive, HeadersTimeout)


class SyncWorker(ProblemAnswers, sync.SyncWorker):  # type: ignore[misc]
    pass


class ThreadWorker(ProblemAnswers, gthread.ThreadWorker):  # type: ignore[misc]
    pass

