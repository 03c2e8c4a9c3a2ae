"""Road rows (ruling H7), computed exactly.

A player's rows are vertex-disjoint simple paths of >= 4 of their houses along roads; the
player scores the largest total of houses covered. A row containing one of the player's
fortified houses is worth double (rulings H5, V1), and the rows are chosen to maximise that
doubled total.

Method. The player's houses and the roads between them form a small graph (at most 20
houses, nearly a forest). Each connected component is solved on its own:

- a tree component by dynamic programming over the rooted tree: for every house, the best
  value of its subtree when the house is *closed* (not joined to its parent: uncovered or
  inside a finished row) and when it is *open* (joined to its parent, as the end of a row
  segment of known length and fortification). A row shorter than 4 is worth 0, the same as
  leaving its houses uncovered;
- a component with a cycle by branching on the roads of its shortest cycle: rows are paths,
  so every choice of rows leaves at least one road of that cycle unused, and the best value
  is the best over "this road removed" for each road of the cycle. Each branch has one cycle
  fewer, down to trees. Results are memoised per (component, removed roads).
"""

from __future__ import annotations

MIN_ROW = 4  # ruling H7

Rows = tuple[tuple[int, ...], ...]


def best_rows(neighbours: dict[int, list[int]], fortified: set[int]) -> tuple[int, list[list[int]]]:
    """``neighbours``: the player's road graph (house -> neighbouring houses)."""
    solver = _Solver(neighbours, fortified)
    total, rows = 0, []
    for component in solver.components(set(neighbours)):
        value, found = solver.solve(frozenset(component))
        total += value
        rows.extend(list(r) for r in found)
    return total, rows


Edge = tuple[int, int]


class _Solver:
    def __init__(self, neighbours: dict[int, list[int]], fortified: set[int]) -> None:
        self.neighbours = neighbours
        self.fortified = fortified
        self.memo: dict[tuple[frozenset[int], frozenset[Edge]], tuple[int, Rows]] = {}

    def worth(self, row: tuple[int, ...]) -> int:
        if len(row) < MIN_ROW:
            return 0
        return len(row) * (2 if any(h in self.fortified for h in row) else 1)

    def adjacent(self, house: int, part: frozenset[int], removed: frozenset[Edge]) -> list[int]:
        return [
            x
            for x in self.neighbours[house]
            if x in part and (min(house, x), max(house, x)) not in removed
        ]

    def components(
        self, houses: set[int], removed: frozenset[Edge] = frozenset()
    ) -> list[set[int]]:
        left = set(houses)
        parts = []
        while left:
            start = min(left)
            part, frontier = {start}, [start]
            while frontier:
                house = frontier.pop()
                for nxt in self.neighbours[house]:
                    if (
                        nxt in left
                        and nxt not in part
                        and (min(house, nxt), max(house, nxt)) not in removed
                    ):
                        part.add(nxt)
                        frontier.append(nxt)
            left -= part
            parts.append(part)
        return parts

    def solve(
        self, component: frozenset[int], removed: frozenset[Edge] = frozenset()
    ) -> tuple[int, Rows]:
        if len(component) < MIN_ROW:
            return 0, ()
        removed = frozenset(e for e in removed if e[0] in component and e[1] in component)
        key = (component, removed)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        adjacency = {h: self.adjacent(h, component, removed) for h in component}
        edges = sum(len(v) for v in adjacency.values()) // 2
        if edges == len(component) - 1:
            answer = self.tree(component, adjacency)
        else:
            answer = (-1, ())
            for edge in self.shortest_cycle(adjacency):
                fewer = removed | {edge}
                value, rows = 0, ()
                for part in self.components(set(component), fewer):
                    part_value, part_rows = self.solve(frozenset(part), fewer)
                    value += part_value
                    rows += part_rows
                if value > answer[0]:
                    answer = (value, rows)
        self.memo[key] = answer
        return answer

    @staticmethod
    def shortest_cycle(adjacency: dict[int, list[int]]) -> list[Edge]:
        """The roads of a shortest cycle (BFS from every house; graphs are tiny)."""
        best: list[Edge] | None = None
        for root in sorted(adjacency):
            parent = {root: None}
            depth = {root: 0}
            queue = [root]
            for house in queue:
                for nxt in adjacency[house]:
                    if nxt == parent[house]:
                        continue
                    if nxt in depth:
                        if best is None or depth[house] + depth[nxt] + 1 < len(best):
                            best = _cycle_edges(parent, house, nxt)
                        continue
                    parent[nxt] = house
                    depth[nxt] = depth[house] + 1
                    queue.append(nxt)
        if best is None:
            raise ValueError("component has no cycle")
        return best

    # -- trees -----------------------------------------------------------------------------
    def tree(self, component: frozenset[int], adjacency: dict[int, list[int]]) -> tuple[int, Rows]:
        """Dynamic programming over the rooted tree (see the module docstring).

        An *open* entry is a row segment going up from a house: (value of everything else in
        the subtree, segment length, rows, segment). Its worth is settled when it closes, so
        entries are kept per (length capped at 4, fortified) and, for long unfortified
        segments, both the best for a plain and for a later doubled row. Rows and segments
        are kept as shared links and spelled out only for the answer.
        """
        root = min(component)
        order, parent = [root], {root: None}
        for house in order:
            for nxt in adjacency[house]:
                if nxt not in parent:
                    parent[nxt] = house
                    order.append(nxt)
        fortified = self.fortified
        closed: dict[int, tuple[int, object]] = {}
        opens: dict[int, list[tuple[int, int, bool, object, object]]] = {}
        for house in reversed(order):
            children = [c for c in adjacency[house] if parent[c] == house]
            own_fort = house in fortified
            child_sum = sum(closed[c][0] for c in children)

            def rest(excluded, children=children):
                rows: object = None
                for c in children:
                    if c not in excluded and closed[c][1] is not None:
                        rows = (rows, closed[c][1])
                return rows

            # open entries: (value, length, fortified, rows, segment)
            candidates = [(child_sum, 1, own_fort, rest(()), (house, None))]
            for c in children:
                others = child_sum - closed[c][0]
                for value, length, fort, rows, segment in opens[c]:
                    candidates.append(
                        (
                            others + value,
                            length + 1,
                            fort or own_fort,
                            (rest((c,)), rows),
                            (house, segment),
                        )
                    )
            opens[house] = _prune(candidates)
            # closed: uncovered, or the end or the middle of a finished row
            best_value, best_rows = child_sum, rest(())
            for c in children:
                others = child_sum - closed[c][0]
                for value, length, fort, rows, segment in opens[c]:
                    length += 1
                    if length < MIN_ROW:
                        continue
                    total = others + value + length * (2 if fort or own_fort else 1)
                    if total > best_value:
                        best_value = total
                        best_rows = ((rest((c,)), rows), ("row", (house, segment), None))
            for i, a in enumerate(children):
                for b in children[i + 1 :]:
                    others = child_sum - closed[a][0] - closed[b][0]
                    for value_a, length_a, fort_a, rows_a, seg_a in opens[a]:
                        for value_b, length_b, fort_b, rows_b, seg_b in opens[b]:
                            length = length_a + length_b + 1
                            if length < MIN_ROW:
                                continue
                            double = fort_a or fort_b or own_fort
                            total = others + value_a + value_b + length * (2 if double else 1)
                            if total > best_value:
                                best_value = total
                                best_rows = (
                                    (rest((a, b)), (rows_a, rows_b)),
                                    ("row", (house, seg_b), seg_a),
                                )
            closed[house] = (best_value, best_rows)
        value, rows = closed[root]
        return value, tuple(_spell_rows(rows))


def _prune(candidates):
    """Keep the open entries that can still be best (see ``_Solver.tree``)."""
    kept: dict[tuple, tuple] = {}
    for entry in candidates:
        value, length, fort = entry[0], entry[1], entry[2]
        if length < MIN_ROW:
            keys = [((length, fort), value)]
        elif fort:
            keys = [((MIN_ROW, True), value + 2 * length)]
        else:
            keys = [
                ((MIN_ROW, False, 1), value + length),
                ((MIN_ROW, False, 2), value + 2 * length),
            ]
        for key, score in keys:
            if key not in kept or kept[key][0] < score:
                kept[key] = (score, entry)
    unique = {id(entry): entry for _, entry in kept.values()}
    return list(unique.values())


def _spell_rows(rows) -> list[tuple[int, ...]]:
    """Flatten the shared links built by ``_Solver.tree`` into rows of houses."""
    out: list[tuple[int, ...]] = []
    stack = [rows]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if node[0] == "row":
            _, up, down = node
            first = []
            while down is not None:
                first.append(down[0])
                down = down[1]
            second = []
            while up is not None:
                second.append(up[0])
                up = up[1]
            out.append((*reversed(first), *second))
        else:
            stack.append(node[0])
            stack.append(node[1])
    return out


def _cycle_edges(parent: dict[int, int | None], a: int, b: int) -> list[Edge]:
    """The cycle closed by the non-tree road a-b in a BFS tree: both tree paths up to the
    lowest common ancestor, plus a-b."""
    path_a = [a]
    while parent[path_a[-1]] is not None:
        path_a.append(parent[path_a[-1]])
    path_b = [b]
    while parent[path_b[-1]] is not None:
        path_b.append(parent[path_b[-1]])
    common = set(path_a) & set(path_b)
    path_a = path_a[: next(i for i, h in enumerate(path_a) if h in common) + 1]
    path_b = path_b[: next(i for i, h in enumerate(path_b) if h in common) + 1]
    walk = path_a + list(reversed(path_b[:-1]))
    edges = [(min(x, y), max(x, y)) for x, y in zip(walk, walk[1:] + walk[:1], strict=True)]
    return edges
