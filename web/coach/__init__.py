"""The coach at the table: `follow` keeps up with a bot game and holds its hints and reviews
(computed by the engine's `game.coach`), `view` draws them as HTML and text."""
