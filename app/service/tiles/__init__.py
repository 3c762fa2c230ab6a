"""The tile games (MCR and the regional rule sets of `app.rules`), as the service serves them:
their requests read into domain values (`requests`, with `hand_reading`, `context_reading`
and the request schemas `request_schemas`; a round to settle: `settle_requests`,
`settle_schemas`), their answers written (`responses`; the rule-set document: `documents`),
their declared answer shapes (`answer_schemas`, `document_schemas`), their pictures
(`pictures`, `wild_layout`) and the family that ties them together (`family`), which this
package registers with the service (`app.service.families`).
"""

from app.service.families import register_service_family
from app.service.tiles.family import FAMILY

register_service_family(FAMILY)
