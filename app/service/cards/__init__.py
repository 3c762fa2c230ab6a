"""The card games scored by groups (word cards, `app.rules.cards`), as the service serves them:
their requests and request schemas read into domain values (`requests`), their answers written
(`responses`; the rule-set document: `documents`), their declared answer shapes
(`answer_schemas`, `document_schemas`), their pictures (`pictures`) and the family that ties
them together (`family`), which this package registers with the service
(`app.service.families`).
"""

from app.service.cards.family import FAMILY
from app.service.families import register_service_family

register_service_family(FAMILY)
