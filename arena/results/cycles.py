"""Non-transitive cycles: A beats B beats C beats A, each score above ½.

The "beats" graph has an edge A → B when A's pairwise score against B is above ½. A cycle
can only lie inside one strongly connected component of it (Tarjan's algorithm), so a
tournament whose beats graph has none is transitive and has no cycle. Inside a component,
the shortest cycle through each of its versions (a breadth-first search) is listed: every
version on a cycle is on a listed one, and the list stays short however many longer cycles
the component has. The same is done on the graph of *significant* edges alone (the score's
interval excludes ½), so a cycle whose every edge is significant is found even when a
shorter, doubtful one goes through the same versions; a cycle is marked significant when
every one of its edges is.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from arena.results.pairwise import Cell, Pair

Graph = dict[str, list[str]]


@dataclass(frozen=True, slots=True)
class Cycle:
    """Versions in beating order (each beats the next, the last beats the first)."""

    versions: tuple[str, ...]
    significant: bool

    def edges(self) -> list[Pair]:
        """Each (winner, loser) along the cycle."""
        ring = self.versions
        return [(ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))]


def beats_graph(cells: Iterable[Cell], significant_only: bool = False) -> Graph:
    """A → [versions A scored above ½ against] (only those whose interval excludes ½ when
    ``significant_only``), each list sorted so the search is deterministic."""
    graph: Graph = {}
    for cell in cells:
        graph.setdefault(cell.a, [])
        if cell.beats and (cell.significant or not significant_only):
            graph[cell.a].append(cell.b)
    for targets in graph.values():
        targets.sort()
    return graph


def components(graph: Graph) -> list[list[str]]:
    """The strongly connected components (Tarjan's algorithm, without recursion), each
    sorted, in order of their first version."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            targets = graph.get(node, [])
            if child < len(targets):
                work.append((node, child + 1))
                target = targets[child]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(found)


def shortest_cycle_through(graph: Graph, start: str, within: set[str]) -> tuple[str, ...] | None:
    """The shortest cycle from ``start`` back to it inside ``within`` (breadth first), or None."""
    parent: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target in graph.get(node, []):
            if target not in within:
                continue
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return tuple(reversed(path))
            if target not in parent:
                parent[target] = node
                queue.append(target)
    return None


def _canonical(ring: tuple[str, ...]) -> tuple[str, ...]:
    """The rotation that starts at the ring's smallest name (one cycle, one spelling)."""
    first = ring.index(min(ring))
    return ring[first:] + ring[:first]


def _short_cycles(graph: Graph) -> set[tuple[str, ...]]:
    rings: set[tuple[str, ...]] = set()
    for component in components(graph):
        if len(component) < 2:
            continue
        members = set(component)
        for version in component:
            ring = shortest_cycle_through(graph, version, members)
            if ring is not None:
                rings.add(_canonical(ring))
    return rings


def find_cycles(cells: Mapping[Pair, Cell]) -> list[Cycle]:
    """The non-transitive cycles of a pairwise matrix (see the module), shortest first."""
    rings = _short_cycles(beats_graph(cells.values()))
    rings |= _short_cycles(beats_graph(cells.values(), significant_only=True))
    cycles = [
        Cycle(ring, all(cells[edge].significant for edge in Cycle(ring, False).edges()))
        for ring in rings
    ]
    return sorted(cycles, key=lambda c: (not c.significant, len(c.versions), c.versions))


def cyclic_versions(graph: Graph) -> list[list[str]]:
    """The components of more than one version: the versions that non-transitive cycles
    tie together (every version of one lies on some cycle)."""
    return [c for c in components(graph) if len(c) > 1]
