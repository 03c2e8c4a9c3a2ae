"""An import-linter contract type of ours: no import circle among the given packages'
modules (``no_circles``). import-linter's own ``acyclic_siblings`` judges packages; this
one judges files, as a reader follows them: a module that imports another which imports
it back, however long the way, breaks it, including imports made inside functions.
"""

from __future__ import annotations

from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


class NoCirclesContract(Contract):
    type_name = "no_circles"

    containers = fields.ListField(subfield=fields.StringField())

    def check(self, graph, verbose: bool) -> ContractCheck:
        modules = sorted(
            module for container in self.containers  # type: ignore[attr-defined]
            for module in {container, *graph.find_descendants(container)})
        inside = set(modules)
        circles: list[list[str]] = []
        seen: set[frozenset[str]] = set()
        for importer in modules:
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                if imported not in inside or imported == importer:
                    continue
                back = graph.find_shortest_chain(importer=imported, imported=importer)
                if back is None:
                    continue
                members = frozenset(back)
                if members not in seen:
                    seen.add(members)
                    circles.append([importer, *back])
        return ContractCheck(kept=not circles, metadata={"circles": circles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        from importlinter.application import output

        for circle in check.metadata["circles"]:
            output.print_error(" -> ".join(circle), bold=False)
            output.new_line()
