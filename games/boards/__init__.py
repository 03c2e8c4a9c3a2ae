"""Pictures of a match: the board as a reader may see it, as SVG (drawn by the engine's
``render_svg``) or PNG, with the players' names and text a screen reader can read. Django
admin's replay page and the REST ``board.svg``/``board.png`` both draw through here."""
