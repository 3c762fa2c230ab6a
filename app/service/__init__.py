"""The web-free service: a request body read into domain values (with every check that needs
the rule set), the engine called, the answer written as the API's JSON, batches run item by
item. The HTTP layer (app/api) and the library path (mahjong_scoring: `score_lines`, the
command-line scorer, Dask) both call it; it imports nothing of the web stack."""
