"""The web-free service: a request body read into domain values (with every check that needs
the rule set), the engine called, the answer written as the API's JSON, batches run item by
item. The HTTP layer (app/api) and the library path (mahjong_scoring: `score_lines`, the
command-line scorer, Dask) both call it; it imports nothing of the web stack.

This package is the core every family shares: the family registry (`families`), the scoring
operations, one declaration each, which the routes, the direct path and the contract's
generator read (`operations`), batches (`batch`), JSON bodies (`json_body`), problems
(`problems`, `problem_schemas`), the request schemas' building blocks and their fast reading
(`schema_fields`, `request_schemas`, `fast_read`), the readers every family uses (`reading`,
`option_reading`), the answers' envelope and shared shapes (`envelope`, `answer_fields`,
`answer_schemas`, `document_schemas`, `definitions`), pictures (`picture_answers`, and the
drawing kit `pictures`) and the bulk scorer's collector (`collector`). Each family is one
package (`tiles`, `cards`) that registers itself when imported; the served families are
imported here, one line each, in the order they are served.
"""

# isort: off
from app.service import tiles  # noqa: F401  (registers the tile games)
from app.service import cards  # noqa: F401  (registers the card games)
# isort: on
