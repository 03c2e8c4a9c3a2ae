"""GraphQL fields of the analysis, over the same services and selectors as REST:
``matchAnalysis`` (the REST body as JSON), ``requestAnalysis`` (a mutation) and
``analysisProgress`` (a subscription pushing progress as the analysis runs)."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry
from channels.db import database_sync_to_async
from django.utils.translation import gettext as _
from strawberry.scalars import JSON
from strawberry.types import Info

from games.analysis import selectors, services
from games.analysis.models import FINAL_STATUSES, AnalysisStatus
from games.analysis.progress import ANALYSIS_PROGRESS_TYPE, analysis_group_name
from games.graphql.errors import as_graphql_error, attempt, signed_in
from games.graphql.types import GameError
from games.matches import errors, parsing
from infra.api_errors import ApiError

_ENDED = (*FINAL_STATUSES, AnalysisStatus.FAILED)


@strawberry.type(description="How far a match's analysis has got.")
class AnalysisProgress:
    match_id: strawberry.ID
    status: str = strawberry.field(description="queued, running, done, stopped, failed.")
    done: int = strawberry.field(description="Decisions analysed.")
    total: int = strawberry.field(description="Decisions in the match.")


@strawberry.type
class AnalysisPayload:
    analysis: JSON | None = strawberry.field(default=None, description=(
        "As REST's GET /matches/{id}/analysis/ answers: progress until done, then seats "
        "and decisions."))
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.type
class AnalysisQueries:
    @strawberry.field(description="The analysis of a finished match (error no_analysis "
                      "before any request); REST: GET /api/v1/matches/{id}/analysis/.")
    def match_analysis(self, match_id: strawberry.ID) -> JSON:
        return selectors.analysis_of(match_id)


@strawberry.type
class AnalysisMutations:
    @strawberry.mutation(description="Request the analysis of a finished match (a player "
                         "of it, or an admin); joins one that exists.")
    def request_analysis(self, info: Info, match_id: strawberry.ID) -> AnalysisPayload:
        user, problems = signed_in(info)
        if problems:
            return AnalysisPayload(errors=problems)
        result, problems = attempt(lambda: services.request_analysis(match_id, user))
        if problems:
            return AnalysisPayload(errors=problems)
        analysis, _created = result
        return AnalysisPayload(analysis=selectors.analysis_body(analysis, analysis.match))


def progress_of(match_id: int) -> AnalysisProgress:
    return AnalysisProgress(match_id=strawberry.ID(str(match_id)),
                            **selectors.analysis_progress(match_id))


progress_async = database_sync_to_async(progress_of)


@strawberry.type
class AnalysisSubscriptions:
    @strawberry.subscription(description="A match's analysis progress over websockets: the "
                             "current figure at once, then as it runs; the stream completes "
                             "when the analysis is done, stopped or failed.")
    async def analysis_progress(self, info: Info, match_id: strawberry.ID
                                ) -> AsyncGenerator[AnalysisProgress, None]:
        consumer = info.context.ws
        if consumer is None:
            raise as_graphql_error(
                errors.InvalidRequest(_("Subscriptions are served over websockets only.")))
        try:
            pk = parsing.parse_match_id(match_id)
        except ApiError as exc:
            raise as_graphql_error(exc) from None
        async with consumer.listen_to_channel(ANALYSIS_PROGRESS_TYPE,
                                              groups=[analysis_group_name(pk)]) as messages:
            try:  # joined first: a change between the read and the join is not lost
                current = await progress_async(pk)
            except ApiError as exc:
                raise as_graphql_error(exc) from None
            yield current
            if current.status in _ENDED:
                return
            async for message in messages:
                if message.get("done", -1) < current.done and message["status"] == current.status:
                    continue  # older than what was pushed
                current = AnalysisProgress(match_id=strawberry.ID(str(pk)),
                                           status=str(message["status"]),
                                           done=int(message["done"]), total=int(message["total"]))
                yield current
                if current.status in _ENDED:
                    return
