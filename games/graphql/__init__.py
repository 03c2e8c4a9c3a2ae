"""The GraphQL API (strawberry-django): the same capabilities as REST, plus live match
updates over websockets. Resolvers parse, call games.services / games.matches (writes) or
games.selectors (reads), render."""
