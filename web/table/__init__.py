"""The card table: cards, the pegboard, the table's layout, and its motion. Pure Python
(the browser glue in `web.dom` paints what these functions return)."""
