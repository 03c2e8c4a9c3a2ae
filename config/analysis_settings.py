"""Settings of the post-game analysis (games/analysis/, docs/analysis.md), imported at the
end of config/settings.py; its Celery queue is wired with the others there."""

from config.env import env_bool, env_int, env_str

# Post-game analysis (docs/analysis.md): the budget per decision (search iterations, worlds
# judging the moves), the CPU cap per match, analyses per user per day (admins: no limit),
# analysing rated matches when scored, and the heartbeat age after which a request resends.
ANALYSIS_ITERATIONS = env_int("ANALYSIS_ITERATIONS", 300)
ANALYSIS_SAMPLES = env_int("ANALYSIS_SAMPLES", 24)
ANALYSIS_CPU_SECONDS = float(env_str("ANALYSIS_CPU_SECONDS", "600"))
ANALYSIS_DAILY_LIMIT = env_int("ANALYSIS_DAILY_LIMIT", 10)
ANALYSE_RATED_MATCHES = env_bool("ANALYSE_RATED_MATCHES", False)
ANALYSIS_STALE_SECONDS = env_int("ANALYSIS_STALE_SECONDS", 120)
