"""POST /api/v1/odds/: exact hypergeometric odds."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api.fields import StrictBooleanField, StrictIntegerField
from engines.odds import MAX_DECK_SIZE, at_least, at_least_with_mulligan


class OddsRequest(serializers.Serializer):
    deck_size = StrictIntegerField(
        min_value=1,
        max_value=MAX_DECK_SIZE,
        help_text=f"Cards in the deck, 1 to {MAX_DECK_SIZE:,}.",
    )
    copies = StrictIntegerField(
        min_value=0, max_value=MAX_DECK_SIZE, help_text="Copies of the cards you want."
    )
    draws = StrictIntegerField(min_value=0, max_value=MAX_DECK_SIZE, help_text="Cards drawn.")
    at_least = StrictIntegerField(
        min_value=0, max_value=MAX_DECK_SIZE, help_text="How many of them you need at least."
    )
    mulligan = StrictBooleanField(default=False, help_text="Allow one mulligan of the hand.")


OddsResponse = inline_serializer(
    "OddsResponse",
    {
        "probability": serializers.FloatField(),
        "exact": serializers.CharField(
            help_text="The probability as a fraction, numerator/denominator."
        ),
    },
)


class OddsView(APIView):
    permission_classes = [AllowAny]
    throttle_scope = "validate"
    authentication_classes: list[type] = []

    @extend_schema(
        request=OddsRequest,
        responses={200: OddsResponse},
        summary="Exact odds of drawing at least k of some cards",
    )
    def post(self, request: Request) -> Response:
        body = OddsRequest(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        compute = at_least_with_mulligan if data["mulligan"] else at_least
        p = compute(data["deck_size"], data["copies"], data["draws"], data["at_least"])
        return Response({"probability": float(p), "exact": f"{p.numerator}/{p.denominator}"})
