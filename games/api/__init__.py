"""REST, all of it: one subpackage per capability (games/api/<capability>/: views.py,
serializers.py, urls.py as it needs them) above the capability's services and selectors,
the shared toolkit (toolkit/: paging, endpoint declarations), the documents (openapi.py,
examples.py, stream_schema.py, asyncapi.py) and every route (urls.py), under ``/api/v1/``."""
