"""The GraphQL API (strawberry-django): the same capabilities as REST, plus live match
updates over websockets. Resolvers parse, call games.matches.services / games.matches (writes) or
games.matches.selectors (reads), render."""
