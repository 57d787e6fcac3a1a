"""Motion: how a new screen replaces the old one without rebuilding it.

The renderer returns HTML; `web.dom` hands it to `MORPH_JS`, a small function (plain browser
JavaScript, kept here beside the rules it follows) that updates the page in place:

* Elements with a ``data-key`` (cards by card, pegs by side and role, seats by seat) are the
  same element before and after, wherever they move in the tree, so CSS transitions run (a
  chosen card rises, a peg slides hole by hole) and focus stays where it was.
* A card that moved (from the hand to the pile) travels from where it was; a card that just
  appeared with ``data-from`` (a bot's card, the starter) travels from that element's place,
  turning face up. Web Animations, so input is never held: the next click just lands.
* Pegs leapfrog: the peg that was in front stays, becoming the back peg, and the other one
  jumps past it to the new score.
* Everything else is matched by position and kind, its attributes and text changed in place;
  a part marked ``data-static`` (a card's drawing, the board's holes) is left as it is when the
  new one carries the same mark.

The pace setting gives the duration (`duration_ms`); instant play and
``prefers-reduced-motion`` turn motion off.

>>> duration_ms("normal"), duration_ms("instant"), duration_ms("slow") <= 1300
(300, 0, True)
"""

from __future__ import annotations

# Never longer than the bots' pause between moves at the same pace (web.dom.BOT_DELAY).
DURATIONS = {"slow": 460, "normal": 300, "fast": 170, "instant": 0}


def duration_ms(pace: str) -> int:
    """How long a card's or a peg's move takes at this pace of play."""
    return DURATIONS.get(pace, DURATIONS["normal"])


MORPH_JS = r"""
(root, html, ms) => {
  if (ms > 0 && window.matchMedia("(prefers-reduced-motion: reduce)").matches) ms = 0;
  const rects = new Map();
  if (ms > 0) {
    for (const el of root.querySelectorAll("[data-key]")) rects.set(el.dataset.key, el.getBoundingClientRect());
  }
  const next = document.createElement("template");
  next.innerHTML = html;
  // Leapfrog: the old front peg becomes the new back peg when it stands where the back peg goes.
  for (const back of next.content.querySelectorAll('[data-key$="-back"].peg')) {
    const side = back.dataset.key.slice(0, -5);
    const oldFront = root.querySelector(`[data-key="${side}-front"]`);
    const oldBack = root.querySelector(`[data-key="${side}-back"]`);
    if (oldFront && oldBack && oldFront.getAttribute("cx") === back.getAttribute("cx")
        && oldFront.getAttribute("cy") === back.getAttribute("cy")
        && !(oldBack.getAttribute("cx") === back.getAttribute("cx") && oldBack.getAttribute("cy") === back.getAttribute("cy"))) {
      oldFront.dataset.key = `${side}-back`;
      oldBack.dataset.key = `${side}-front`;
    }
  }
  const pool = new Map();
  for (const el of root.querySelectorAll("[data-key]")) pool.set(el.dataset.key, el);

  const keyOf = (node) => (node.nodeType === 1 ? node.getAttribute("data-key") : null);
  const patch = (el, model) => {
    if (el.nodeType === 1 && model.hasAttribute("data-static")
        && el.getAttribute("data-static") === model.getAttribute("data-static")) return;   // drawn once
    if (el.nodeType !== 1) {
      if (el.nodeValue !== model.nodeValue) el.nodeValue = model.nodeValue;
      return;
    }
    for (const { name } of Array.from(el.attributes)) {
      if (!model.hasAttribute(name) && !(name === "open" && el.tagName === "DETAILS")) el.removeAttribute(name);
    }
    for (const { name, value } of Array.from(model.attributes)) {
      if (el.getAttribute(name) !== value) el.setAttribute(name, value);
    }
    if (el.tagName === "INPUT" && (el.type === "radio" || el.type === "checkbox")) {
      el.checked = model.hasAttribute("checked");
    }
    children(el, model);
  };
  const children = (parent, model) => {
    const wanted = Array.from(model.childNodes);
    let index = 0;
    for (const node of wanted) {
      const here = parent.childNodes[index] || null;
      const key = keyOf(node);
      let match = null;
      if (key !== null) {
        const old = pool.get(key);
        if (old && old.nodeName === node.nodeName) {
          match = old;
          pool.delete(key);
        }
      } else if (here && keyOf(here) === null && here.nodeType === node.nodeType && here.nodeName === node.nodeName) {
        match = here;
      }
      if (match) {
        if (match !== here) parent.insertBefore(match, here);
        patch(match, node);
      } else {
        parent.insertBefore(node, here);
      }
      index += 1;
    }
    while (parent.childNodes.length > index) parent.removeChild(parent.lastChild);
  };
  children(root, next.content);

  if (ms <= 0) return;
  for (const el of root.querySelectorAll(".card[data-key]")) {
    const was = rects.get(el.dataset.key);
    let from = was, fromCard = true;
    for (const origin of (was ? [] : (el.dataset.from || "").split(" "))) {
      const rect = rects.get(origin);
      if (rect && rect.width) {
        from = rect;
        fromCard = !origin.startsWith("seat-");
        break;
      }
    }
    if (!from) continue;
    const now = el.getBoundingClientRect();
    if (!now.width) continue;
    const dx = from.left + from.width / 2 - (now.left + now.width / 2);
    const dy = from.top + from.height / 2 - (now.top + now.height / 2);
    const scale = fromCard ? Math.max(0.3, Math.min(3, from.width / now.width)) : 0.6;
    const turn = !was;
    if (!turn && Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(scale - 1) < 0.02) continue;
    el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})${turn ? " rotateY(90deg)" : ""}`, zIndex: 20 },
      { transform: "none", zIndex: 20 },
    ], { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
  }
}
"""
