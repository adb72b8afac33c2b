"""Typed shapes of the sidecar's messages, after the package's JSON Schemas (schemas/*.schema.json).

TypedDicts are plain dicts at run time: a response is what the sidecar sent, and fields a later release
adds are kept. Optional fields live in the ``...Optional`` bases (``total=False``), so Python 3.9 can say
which are required.
"""
from dataclasses import dataclass
from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

Signature = Union[str, float]


class Node(TypedDict):
    id: str
    capacity: int


class _ProblemSessionOptional(TypedDict, total=False):
    credit: Dict[str, int]
    eligible: List[str]
    signature: Signature


class ProblemSession(_ProblemSessionOptional):
    id: str
    weight: int
    tokens: int
    ready: bool


class Problem(TypedDict):
    nodes: List[Node]
    sessions: List[ProblemSession]


class Assignment(TypedDict):
    session: str
    node: str


class PlanValue(TypedDict):
    credit: int
    ready: int
    tokens: int


class PlanStats(TypedDict, total=False):
    path: str
    work: int
    cells: int
    states: int
    keyFits: bool
    nodesKept: int
    sessionsKept: int
    micros: float
    heuristic: str


class _PlanOptional(TypedDict, total=False):
    reason: str


class Plan(_PlanOptional):
    status: Literal["optimal", "fallback"]
    assignments: List[Assignment]
    value: PlanValue
    quantum: int
    stats: PlanStats


class _ToolCallOptional(TypedDict, total=False):
    returnedAt: float
    deadline: float
    command: str
    progress: float
    reportedAt: float


class ToolCall(_ToolCallOptional):
    name: str
    startedAt: float


class _CacheObservationOptional(TypedDict, total=False):
    live: int


class CacheObservation(_CacheObservationOptional):
    node: str
    tokens: int
    observedAt: float


class _SnapshotSessionOptional(TypedDict, total=False):
    reserve: int
    eligible: List[str]
    cache: List[CacheObservation]
    tool: ToolCall
    waitingSince: float
    expectedService: float


class SnapshotSession(_SnapshotSessionOptional):
    id: str
    tokens: int


class Snapshot(TypedDict):
    time: float
    nodes: List[Node]
    sessions: List[SnapshotSession]


class _CompletedCallOptional(TypedDict, total=False):
    command: str
    deadline: float
    session: str


class CompletedCall(_CompletedCallOptional):
    name: str
    startedAt: float
    returnedAt: float


class SolveOptions(TypedDict, total=False):
    quantum: int
    stateBudget: int
    deadlineMs: float
    path: Literal["auto", "dense", "frontier"]


class EvaluateOptions(TypedDict, total=False):
    halfLife: float
    creditUnit: int
    reserve: int
    waitThreshold: float
    waitServiceMultiple: float
    waitReserve: bool
    waitQuantum: int
    holdHorizon: float
    creditSource: Literal["observed", "live"]


class Previous(TypedDict):
    """An earlier tick's plan to carry over: its assignments and the signatures of their sessions."""

    assignments: List[Assignment]
    signatures: Dict[str, Signature]


class CutPoint(TypedDict):
    index: int
    assignment: Assignment
    reason: Dict[str, Any]
    message: str


class _RevalidationOptional(TypedDict, total=False):
    cutAt: CutPoint


class Revalidation(_RevalidationOptional):
    outcome: Literal["applied", "truncated", "dropped"]
    applied: List[Assignment]
    cut: List[Assignment]
    changed: List[str]
    residual: Dict[str, int]


class Hello(TypedDict):
    id: Union[str, int]
    op: str
    ok: bool
    protocol: int
    protocols: List[int]
    version: str
    ops: List[str]
    maxLineBytes: int


class Histogram(TypedDict):
    count: float
    min: float
    max: float
    mean: float
    p50: float
    p95: float
    p99: float


class Stats(TypedDict):
    id: Union[str, int]
    op: str
    ok: bool
    protocol: int
    version: str
    uptimeMs: int
    maxLineBytes: int
    requests: Dict[str, int]
    errors: Dict[str, int]
    solveMicros: Histogram
    predictor: Dict[str, int]


PredictorJSON = Dict[str, Any]
"""The predictor's state as ``predictor.save`` returns it (schemas/predictor.schema.json)."""


@dataclass(frozen=True)
class TickResult:
    """One tick's answer: the plan, the signatures of the sessions placed, and what of ``previous`` held."""

    plan: Plan
    signatures: Dict[str, Signature]
    revalidation: Optional[Revalidation] = None

    @property
    def assignments(self) -> List[Assignment]:
        """Everything to admit, in order: the carried prefix of ``previous``, then the new plan."""
        carried = self.revalidation["applied"] if self.revalidation is not None else []
        return [*carried, *self.plan["assignments"]]

    def carry(self) -> Previous:
        """The ``previous`` of the next tick, for a scheduler that has admitted none of ``assignments`` yet."""
        return {"assignments": self.assignments, "signatures": dict(self.signatures)}
