"""The table's sounds, made in the browser (Web Audio) from a few tones: no sound file to
download, nothing for a first visit to fetch. Which cue plays when is `web.table.sounds`; this
module only voices them. One of the few modules that touch the browser FFI.

A browser lets a page make sound only after the player has touched it, and a page may hold few
audio contexts: the one context is made at the first cue, which always follows a click or key.
"""

from __future__ import annotations

from typing import Any

import js

# Each cue as tones: (start s, length s, wave, from Hz, to Hz, loudness). Quiet and short: a
# card's soft snap, a peg's wooden tock, a two-note call for the player's turn, a rising or
# falling close to the game.
Tone = tuple[float, float, str, float, float, float]
VOICES: dict[str, tuple[Tone, ...]] = {
    "card": ((0.0, 0.05, "triangle", 320, 110, 0.18),),
    "peg": ((0.0, 0.045, "sine", 1250, 820, 0.12),),
    "turn": ((0.0, 0.11, "sine", 660, 660, 0.07), (0.12, 0.16, "sine", 880, 880, 0.07)),
    "win": ((0.0, 0.14, "triangle", 523, 523, 0.09), (0.14, 0.14, "triangle", 659, 659, 0.09),
            (0.28, 0.3, "triangle", 784, 784, 0.09)),
    "loss": ((0.0, 0.18, "triangle", 392, 392, 0.08), (0.2, 0.32, "triangle", 311, 300, 0.08)),
}


class Sound:
    """Plays cues by name; silent where the browser has no audio or refuses it."""

    def __init__(self) -> None:
        self._audio: Any = None

    def play(self, cues: tuple[str, ...]) -> None:
        delay = 0.0
        for cue in cues:
            try:
                self._voice(VOICES[cue], delay)
            except Exception:   # no audio device, or not allowed yet: stay silent
                return
            delay += 0.06       # a card and its points a moment apart, not on top of each other

    def _voice(self, tones: tuple[Tone, ...], delay: float) -> None:
        if self._audio is None:          # one context for the page: browsers cap them
            self._audio = js.window.AudioContext.new()
        audio = self._audio
        now = audio.currentTime + delay
        for start, length, wave, first, last, loudness in tones:
            tone, gain = audio.createOscillator(), audio.createGain()
            tone.type = wave
            tone.frequency.setValueAtTime(first, now + start)
            tone.frequency.exponentialRampToValueAtTime(last, now + start + length)
            gain.gain.setValueAtTime(loudness, now + start)   # then a fade: no click at the end
            gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length)
            tone.connect(gain)
            gain.connect(audio.destination)
            tone.start(now + start)
            tone.stop(now + start + length + 0.02)
