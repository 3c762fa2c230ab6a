"""The OpenAPI document (`openapi.yaml`) generated from the service's code: `./run openapi`
writes it, `./run openapi --check` fails when the committed file is stale.

The scoring operations are declared in `app.service.operations` and laid out per family by
`ServiceFamily.contract`; `contract` holds the texts (descriptions, status codes, examples),
`examples` the example requests, `converter` turns the marshmallow schemas of `app.service`
into JSON Schema (apispec's MarshmallowPlugin), and `build` puts them together, the families
of rule sets apart. Needs apispec, a test dependency: the generator does not ship with the
service, which serves the committed file.
"""
