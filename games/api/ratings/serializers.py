"""Response shapes of the ratings endpoints, for the OpenAPI schema (the views answer the
selectors' dicts as they are: games.ratings.selectors)."""

from rest_framework import serializers

from games.api.matches.serializers import MatchSummarySerializer


class RatingSerializer(serializers.Serializer):
    game = serializers.CharField()
    mu = serializers.FloatField(help_text="openskill's estimate of the skill.")
    sigma = serializers.FloatField(help_text="Its uncertainty.")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: what the leaderboard sorts by.")
    rated_matches = serializers.IntegerField()
    rated_wins = serializers.IntegerField()
    updated_at = serializers.DateTimeField()


class LeaderboardRowSerializer(RatingSerializer):
    rank = serializers.IntegerField(help_text="1 = the best ordinal of the game.")
    username = serializers.CharField()
    is_bot = serializers.BooleanField(help_text="A bot kind's rated account (bot:<kind>).")


class GamePlayedSerializer(serializers.Serializer):
    game = serializers.CharField()
    played = serializers.IntegerField(help_text="Finished matches of the game.")
    wins = serializers.IntegerField()


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    is_bot = serializers.BooleanField()
    date_joined = serializers.DateTimeField()
    games_played = serializers.IntegerField()
    wins = serializers.IntegerField()
    games = GamePlayedSerializer(many=True)
    ratings = RatingSerializer(many=True)
    recent_matches = MatchSummarySerializer(many=True)


class RatingChangeSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    game = serializers.CharField()
    seat = serializers.IntegerField()
    rank = serializers.IntegerField()
    mu_before = serializers.FloatField()
    sigma_before = serializers.FloatField()
    mu_after = serializers.FloatField()
    sigma_after = serializers.FloatField()
    created_at = serializers.DateTimeField()
