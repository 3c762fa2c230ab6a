"""The common score and waits request, answered without Flask's dispatch.

Nearly every request a game server or a bot sends is one shape: `POST` to
`/v1/rulesets/<ruleset>/score` or `/waits` (the operations declared for this path,
`OperationDecl.direct` in `app.service.operations`: `ENDPOINTS`), a JSON body with a
Content-Length, no query string. Flask's part of such a request (a request and an app
context, URL matching, a response object and its headers, the after-request hooks) costs about
as much as scoring the hand (bench/README.md), so `Direct`, a WSGI middleware under the body
deadline and the operations middleware, answers that shape itself, with the functions the
Flask route calls: `announced_body`, `json_object`, the operation's `answer` under the request
time limit, the hands counted, the answer written by orjson, gzip and `Vary` as
`register_compression` does, errors as the problem documents of the error handlers
(`hand_problem`, `api_problem`, `time_limit_problem`, `timeout_problem` for a body past its
deadline, `problem_payload`).
Its answers are the Flask route's, byte for byte (tests/api/test_direct.py sends both the
same requests; tests/api/test_body_deadline.py cuts a body short on each path).

Everything else goes to Flask untouched: another route or method, a query string (`explain`),
another media type, an `Accept` naming SVG (the answer as a picture), a Content-Encoding, a
chunked body, a body over the size limit, an `Origin` when CORS is on. A request whose
scoring raises anything but a request error, the time limit or the body deadline is handed to
Flask with its body replayed, so that unexpected errors are logged and answered in one place.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import orjson
from werkzeug.http import HTTP_STATUS_CODES

from app.api.body_deadline import BodyTimeout, timeout_problem
from app.api.compression import gzip_body, gzip_for
from app.api.handlers import time_limit_problem
from app.api.metrics import Metrics
from app.api.observe import REQUEST_ID_KEY, ROUTE_KEY
from app.domain.deadline import TimeLimitExceeded, time_limit
from app.domain.errors import HandError
from app.rules.families import ServedRuleSet
from app.service.json_body import announced_body, json_object
from app.service.operations import PREFIX, operations
from app.service.problems import (
    PROBLEM_MEDIA_TYPE,
    ApiError,
    api_problem,
    hand_problem,
    problem_payload,
)

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

Answer = Callable[[dict[str, Any], ServedRuleSet, bool], dict[str, Any]]
# The last path segment -> (the URL rule as Flask names it, the metrics' endpoint, the answer):
# the declared operations flagged for the direct path (`OperationDecl.direct`), as when the
# last app was made (`refresh_endpoints`).
ENDPOINTS: dict[str, tuple[str, str, Answer]] = {}


def refresh_endpoints() -> None:
    """`ENDPOINTS` made again from the declared operations (when an app is made)."""
    ENDPOINTS.clear()
    ENDPOINTS.update(
        (op.name, (op.path.replace("{ruleset}", "<ruleset>"), op.name, op.answer))
        for op in operations() if op.direct)


refresh_endpoints()
_JSON_HEADER = ("Content-Type", "application/json")
_VARY_HEADER = ("Vary", "Accept-Encoding")


def _status_line(status: int) -> str:
    # werkzeug's spelling, so that both paths send the same status line.
    return f"{status} {HTTP_STATUS_CODES.get(status, 'UNKNOWN').upper()}"


class Direct:
    """The WSGI middleware: the common score and waits request answered here, everything else
    by `wsgi_app` (the Flask app)."""

    def __init__(self, wsgi_app: WSGIApplication, *, config: Mapping[str, Any],
                 rulesets: Mapping[str, ServedRuleSet], metrics: Metrics, cors: bool,
                 gzip_min_size: int) -> None:
        self.wsgi_app = wsgi_app
        refresh_endpoints()  # the operations declared by now
        self.config = config  # read per request: tests change the limits of a made app
        self.rulesets = rulesets
        self.metrics = metrics
        self.cors = cors
        self.gzip_min_size = gzip_min_size

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse
                 ) -> Iterable[bytes]:
        # Cheapest tests first; any doubt and Flask answers.
        if (environ.get("REQUEST_METHOD") != "POST" or environ.get("QUERY_STRING")
                or environ.get("CONTENT_TYPE") != "application/json"
                or "HTTP_CONTENT_ENCODING" in environ or "HTTP_TRANSFER_ENCODING" in environ
                or (self.cors and "HTTP_ORIGIN" in environ)):
            return self.wsgi_app(environ, start_response)
        path: str = environ.get("PATH_INFO", "")
        if not path.startswith(PREFIX):
            return self.wsgi_app(environ, start_response)
        ruleset_id, _, last = path[len(PREFIX):].partition("/")
        endpoint = ENDPOINTS.get(last)
        ruleset = self.rulesets.get(ruleset_id)
        length_text: str = environ.get("CONTENT_LENGTH", "")
        if (endpoint is None or ruleset is None or not length_text.isdecimal()
                or int(length_text) > self.config["MAX_CONTENT_LENGTH"]
                or "svg" in environ.get("HTTP_ACCEPT", "")):
            return self.wsgi_app(environ, start_response)
        route, counted_as, answer = endpoint
        environ[ROUTE_KEY] = (route, ruleset_id)
        headers: list[tuple[str, str]]
        raw = b""
        try:
            raw = announced_body(environ["wsgi.input"], int(length_text))
            with time_limit(self.config["REQUEST_TIME_LIMIT"]):
                body = answer(json_object(raw), ruleset, False)
        except HandError as exc:
            problem, headers = hand_problem(exc), []
        except ApiError as exc:
            problem, headers = api_problem(exc), list(exc.headers.items())
        except TimeLimitExceeded:
            problem, headers = time_limit_problem(
                "POST", path, self.config["REQUEST_TIME_LIMIT"]), []
        except BodyTimeout as exc:
            # As the app's handler answers it: the rest of the body is never read, so the
            # connection must not carry another request.
            problem, headers = timeout_problem(exc.limit), [("Connection", "close")]
        except Exception:  # answered, and logged, by Flask's handlers
            del environ[ROUTE_KEY]
            environ["wsgi.input"] = io.BytesIO(raw)
            return self.wsgi_app(environ, start_response)
        else:
            self.metrics.count_hands(ruleset.id, counted_as, 1)
            payload = orjson.dumps(body)
            headers = [_JSON_HEADER]
            if len(payload) >= self.gzip_min_size:
                accept = environ.get("HTTP_ACCEPT_ENCODING")
                if accept is not None and gzip_for(accept):
                    payload = gzip_body(payload)
                    headers.append(("Content-Encoding", "gzip"))
            headers += [("Content-Length", str(len(payload))), _VARY_HEADER]
            start_response("200 OK", headers)
            return [payload]
        payload = problem_payload(problem, environ.get(REQUEST_ID_KEY))
        start_response(_status_line(problem["status"]), [
            ("Content-Type", PROBLEM_MEDIA_TYPE), ("Content-Length", str(len(payload))),
            *headers])
        return [payload]
