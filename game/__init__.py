"""The pure cribbage engine: cards, scoring, the rules state machine, bots and replay.

Standard library only, so it runs unchanged under CPython and in the browser (Pyodide).
"""
