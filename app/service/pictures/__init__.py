"""Pictures of the service's answers, as standalone SVG: pure functions from the request as the
engine took it, the answer's JSON and the rule set to the bytes of the picture.

- `svg`: the primitives (elements, escaped text, the estimated width of a line);
- `faces`: a tile or word card drawn (class `tile` / `card`, `data-tile` its code);
- `layout`: the canvas (rows of sections of groups, lines of text), sized to its content;
- `common`: the fans, totals and payments written under the faces;
- `scoresheet`: a match's scoresheet, drawn from the match answer alone (no faces), the one
  drawing of the kind `match` every family names;

This is the drawing kit every family shares; each family draws its own answers in its package
(`app.service.tiles.pictures`, with `app.service.tiles.wild_layout` for a tile hand with wild
tiles laid out by the reading the scoring chose; `app.service.cards.pictures`). A family names
its drawing functions per kind of answer (`ServiceFamily.pictures`); a new kind of answer
needs one function per family and its reader in
`app.service.picture_answers`. Everything is deterministic: the same answer, the same bytes.
"""
