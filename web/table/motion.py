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
  a part marked ``data-static`` (the board's wood and holes, a card's back) is left as it is
  when the new one carries the same mark.

The pace setting gives the duration (`duration_ms`); instant play and
``prefers-reduced-motion`` turn motion off.

Less markup per repaint (`Morph`): a ``data-static`` part is sent whole the first time only;
after that it goes as an empty stub (``data-stub``) that the page fills from its own copy when
it needs one, and skips when the element is already there. A card's face is a symbol the page
gets once (`web.table.cards.new_faces`), most often ahead of need while it is idle
(`Morph.add_faces_ahead`), so a card is a few nodes to parse and insert. And a
keyed element exactly as the page already shows it (the coach's review of the last hand, a seat
where nothing happened) goes as an empty ``data-same`` stub that the page leaves alone: neither
parsed nor walked (or, inside a part the page builds anew, replaced by the page's own element).

>>> duration_ms("normal"), duration_ms("instant"), duration_ms("slow") <= 1300
(300, 0, True)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from game.cards import DECK

from .cards import faces_ahead, new_faces

if TYPE_CHECKING:
    from collections.abc import Callable

    # `MORPH_JS` as the page evaluated it: (root, html, ms, faces); no root and no html for faces alone.
    MorphJs = Callable[[object, str | None, int, str], object]

# Never longer than the bots' pause between moves at the same pace (web.dom.BOT_DELAY).
DURATIONS = {"slow": 460, "normal": 300, "fast": 170, "instant": 0}


def duration_ms(pace: str) -> int:
    """How long a card's or a peg's move takes at this pace of play."""
    return DURATIONS.get(pace, DURATIONS["normal"])


STATIC_OPEN = re.compile(r'<(svg|g)\b[^>]*\bdata-static="([^"]+)"[^>]*>')


def elide_statics(html: str, sent: set[str]) -> str:
    """``html`` with each ``data-static`` part already in ``sent`` cut to an empty stub; the
    others are kept whole and added to ``sent``. A static part is an ``<svg>`` or ``<g>``
    whose own tag name does not nest inside it.

    >>> sent = set()
    >>> card = '<b><svg viewBox="0 0 6 8" data-static="5H"><g><use href="#pip-H"/></g></svg></b>'
    >>> elide_statics(card, sent) == card, sent
    (True, {'5H'})
    >>> elide_statics(card + card, sent)
    '<b><svg viewBox="0 0 6 8" data-static="5H" data-stub></svg></b><b><svg viewBox="0 0 6 8" data-static="5H" data-stub></svg></b>'
    """
    out, at = [], 0
    for match in STATIC_OPEN.finditer(html):
        if match.start() < at:          # inside a part already copied whole
            continue
        tag, key = match.group(1), match.group(2)
        end = html.find(f"</{tag}>", match.end())
        if end < 0:
            break
        if key in sent:
            out.append(html[at:match.end() - 1] + " data-stub></" + tag + ">")
        else:
            sent.add(key)
            out.append(html[at:end + len(tag) + 3])
        at = end + len(tag) + 3
    out.append(html[at:])
    return "".join(out)


# A literal start makes the scan fast; the renderer puts a space before every attribute.
KEY_ATTR = re.compile(r' data-key="([^"]+)"')
OPENING = re.compile(r'<([a-zA-Z][\w-]*)[^>]*>')
VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
_SAME_NAME: dict[str, re.Pattern[str]] = {}    # tag -> the pattern of its own opening and closing tags


def keyed_parts(html: str) -> list[tuple[int, int, str]]:
    """Where each keyed element (``data-key``) of ``html`` starts and ends, and its key, in
    the order they start. Only the keyed elements' own tag names are scanned for their ends
    (a screen has about 30 keyed elements among 1,100 tags; a loop over every tag was most of
    a repaint's Python time in the page).

    >>> keyed_parts('<p><b data-key="x"><i>1</i><b>2</b></b><br data-key="y"></p>')
    [(3, 39, 'x'), (39, 56, 'y')]
    >>> keyed_parts('<svg><circle data-key="peg" r="2"/><g data-key="g"><g/></g></svg>')
    [(5, 35, 'peg'), (35, 59, 'g')]
    """
    found = []
    for attr in KEY_ATTR.finditer(html):
        opening = OPENING.match(html, html.rfind("<", 0, attr.start()))
        assert opening is not None, "a data-key is an attribute of an opening tag (the renderer writes it so)"
        tag, key, end = opening.group(1), attr.group(1), opening.end()
        if not (html[end - 2] == "/" or tag in VOID):
            same = _SAME_NAME.get(tag)
            if same is None:
                same = _SAME_NAME[tag] = re.compile(rf'<(/?){tag}\b[^>]*?(/?)>')
            depth = 1
            for match in same.finditer(html, end):
                if match.group(1):
                    depth -= 1
                    if not depth:
                        end = match.end()
                        break
                elif not match.group(2):
                    depth += 1
            else:
                end = len(html)          # (never: the renderer closes what it opens)
        found.append((opening.start(), end, key))
    return found


def elide_same(html: str, last: dict[str, str]) -> tuple[str, dict[str, str]]:
    """``html`` with each keyed element (``data-key``) that is exactly as the page last got it
    cut to an empty ``data-same`` stub, which the page keeps as it is; and the keyed parts of
    ``html``, for the next call. The page's copy is the element itself, so a part the last
    screen did not have always goes whole. A part that changed goes whole too, with its own
    unchanged keyed parts cut.

    >>> screen = '<main><div data-key="a"><b data-key="x">1</b></div><i data-key="b">2</i></main>'
    >>> first, seen = elide_same(screen, {})
    >>> first == screen, sorted(seen)
    (True, ['a', 'b', 'x'])
    >>> elide_same(screen, seen)[0]
    '<main><div data-key="a" data-same></div><i data-key="b" data-same></i></main>'
    >>> elide_same(screen.replace("2", "3"), seen)[0]
    '<main><div data-key="a" data-same></div><i data-key="b">3</i></main>'
    >>> elide_same(screen.replace("</b>", "</b>!"), seen)[0]
    '<main><div data-key="a"><b data-key="x" data-same></b>!</div><i data-key="b" data-same></i></main>'
    """
    out, parts, at = [], {}, 0
    for start, end, key in keyed_parts(html):
        whole = parts[key] = html[start:end]
        if start >= at and last.get(key) == whole:
            opening = OPENING.match(html, start)
            assert opening is not None, "keyed_parts found an opening tag here"
            tag = opening.group(1)
            out.append(f'{html[at:start]}<{tag} data-key="{key}" data-same></{tag}>')
            at = end
    out.append(html[at:])
    return "".join(out), parts


STATE_ATTR = re.compile(r' data-state="(\d+)"')


def only_the_state(old: str, new: str) -> str | None:
    """The table's new state number (``data-state``) when it is all that differs between two
    screens, else None. A step of a blind hand's work often moves the public state and shows
    nothing new (another seat's move in the deal): the page then sets that attribute alone
    rather than morph the whole table (40 to 120 ms at CPU x4 at 4 players).

    >>> only_the_state('<div data-state="3"><b>x</b></div>', '<div data-state="14"><b>x</b></div>')
    '14'
    >>> only_the_state('<div data-state="3"><b>x</b></div>', '<div data-state="4"><b>y</b></div>') is None
    True
    >>> only_the_state('<p>lobby</p>', '<div data-state="1"></div>') is None
    True
    """
    found, was = STATE_ATTR.search(new), STATE_ATTR.search(old)
    if found is None or was is None or found.start() != was.start():
        return None
    same = old[:was.start()] == new[:found.start()] and old[was.end():] == new[found.end():]
    return found.group(1) if same else None


class Morph:
    """The page's keyed update (`MORPH_JS`), fed less markup: see `elide_same` and
    `elide_statics`; the card faces the screen needs go into the page's sprite first
    (`web.table.cards.new_faces`). One per page: the page keeps a copy of every static part and
    every face it was sent, so ``sent`` and ``faces`` live as long; ``last`` is what the page
    shows now, part by part."""

    def __init__(self, morph_js: MorphJs) -> None:
        self.js = morph_js
        self.sent: set[str] = set()
        self.faces: set[str] = set()
        self.last: dict[str, str] = {}

    def __call__(self, root: object, html: str, ms: int) -> None:
        short, parts = elide_same(html, self.last)
        faces = new_faces(html, self.faces)
        try:
            self.js(root, elide_statics(short, self.sent), ms, faces)
        except Exception:
            # The page is not what was sent last (a repaint broke off): send it all, once.
            self.last = {}
            self.js(root, elide_statics(html, self.sent), ms, "")
        self.last = parts      # (the parts of html, whatever was cut from it)

    def faces_missing(self) -> bool:
        """Whether some card's face is not in the page's sprite yet."""
        return len(self.faces) < len(DECK)

    def add_faces_ahead(self, count: int = 6) -> None:
        """Put ``count`` more faces into the page's sprite before any screen needs them (the
        page being idle), so a move that brings many new cards does not add them then."""
        faces = faces_ahead(self.faces, count)
        if faces:
            self.js(None, None, 0, faces)


# Focus a control once the browser has laid out the page for the next frame (a
# ResizeObserver's first report, as for the cards above): focusing at once would make it lay
# the new screen out inside the input's task (14-25 ms for a show's Continue button), only to
# do it again for the frame if anything changed after.
FOCUS_JS = r"""
(el) => {
  window.__focusWatch?.disconnect();   // a later screen's focus wins
  const watch = new ResizeObserver(() => {
    watch.disconnect();
    if (el.isConnected && !el.disabled && document.activeElement !== el) el.focus();
  });
  window.__focusWatch = watch;
  watch.observe(el);
}
"""

MORPH_JS = r"""
(root, html, ms, faces) => {
  const addFaces = () => {    // card faces: symbols for the sprite, before any card uses them
    const parsed = document.createElement("template");
    parsed.innerHTML = `<svg>${faces}</svg>`;
    document.querySelector(".card-sprite").append(...parsed.content.firstChild.childNodes);
  };
  if (html == null) {         // (faces alone, ahead of need: web.table.motion.Morph.add_faces_ahead)
    addFaces();
    return;
  }
  if (ms > 0 && window.matchMedia("(prefers-reduced-motion: reduce)").matches) ms = 0;
  // A motion still waiting for its frame is dropped: the screen it led to is being replaced.
  window.__morphWatch?.disconnect();
  const rects = new Map();
  if (ms > 0) {
    for (const el of root.querySelectorAll("[data-key]")) rects.set(el.dataset.key, el.getBoundingClientRect());
  }
  // (new faces after the places above are read: a new symbol restyles the page, and reading
  // a place after it would make the browser do that at once)
  if (faces) addFaces();
  const next = document.createElement("template");
  next.innerHTML = html;
  // Static parts: keep a copy of each one sent whole; a stub is filled from it when needed.
  const statics = window.__morphStatics || (window.__morphStatics = new Map());
  for (const el of next.content.querySelectorAll("[data-static]:not([data-stub])")) {
    if (!statics.has(el.dataset.static)) statics.set(el.dataset.static, el.cloneNode(true));
  }
  const fill = (node) => {
    if (node.nodeType !== 1) return;
    const stubs = [...node.querySelectorAll("[data-stub]")];
    if (node.hasAttribute("data-stub")) stubs.push(node);
    for (const stub of stubs) {
      const copy = statics.get(stub.dataset.static);
      if (copy) stub.replaceChildren(...copy.cloneNode(true).childNodes);
      stub.removeAttribute("data-stub");
    }
  };
  // Leapfrog: the old front peg becomes the new back peg when it stands where the back peg goes.
  for (const back of next.content.querySelectorAll('[data-key$="-back"].peg')) {
    const side = back.dataset.key.slice(0, -5);
    const oldFront = root.querySelector(`[data-key="${side}-front"]`);
    const oldBack = root.querySelector(`[data-key="${side}-back"]`);
    const place = back.getAttribute("transform");
    if (oldFront && oldBack && oldFront.getAttribute("transform") === place
        && oldBack.getAttribute("transform") !== place) {
      oldFront.dataset.key = `${side}-back`;
      oldBack.dataset.key = `${side}-front`;
    }
  }
  const pool = new Map();
  for (const el of root.querySelectorAll("[data-key]")) pool.set(el.dataset.key, el);

  const keyOf = (node) => (node.nodeType === 1 ? node.getAttribute("data-key") : null);
  // A part new to the page (an unkeyed element whose place shifted, say) may hold parts as they
  // were: each of those stubs is the page's own element, moved in.
  const adopt = (node) => {
    if (node.nodeType !== 1) return;
    for (const stub of node.querySelectorAll("[data-same]")) {
      const old = pool.get(stub.dataset.key);
      if (!old || old.nodeName !== stub.nodeName) throw new Error(`morph: "${stub.dataset.key}" is not on the page`);
      pool.delete(stub.dataset.key);
      stub.replaceWith(old);
    }
  };
  const patch = (el, model) => {
    if (el.nodeType === 1 && model.hasAttribute("data-static")
        && el.getAttribute("data-static") === model.getAttribute("data-static")) return;   // drawn once
    if (el.nodeType !== 1) {
      if (el.nodeValue !== model.nodeValue) el.nodeValue = model.nodeValue;
      return;
    }
    if (model.hasAttribute("data-stub")) fill(model);   // (a stub inside is filled as it is patched)
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
    const keys = new Set(wanted.map(keyOf));
    let index = 0;
    for (const node of wanted) {
      let here = parent.childNodes[index] || null;
      // A keyed part that leaves this parent goes first: inserting each part after it before
      // it instead would move them all, and a moved card's drawing is built anew.
      while (here !== null && keyOf(here) !== null && !keys.has(keyOf(here))) {
        const gone = here;
        here = here.nextSibling;
        gone.remove();
      }
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
        if (!node.hasAttribute?.("data-same")) patch(match, node);   // (a part as it was stays)
      } else if (node.nodeType === 1 && node.hasAttribute("data-same")) {
        throw new Error(`morph: "${key}" is not on the page`);      // (web.table.motion.Morph resends)
      } else {
        fill(node);
        adopt(node);
        parent.insertBefore(node, here);
      }
      index += 1;
    }
    while (parent.childNodes.length > index) parent.removeChild(parent.lastChild);
  };
  children(root, next.content);

  if (ms <= 0) return;
  // A card travels from where it was (or from its data-from origin, turning face up).
  const origin = (el) => {
    if (rects.has(el.dataset.key)) return [rects.get(el.dataset.key), true, false];
    for (const key of (el.dataset.from || "").split(" ")) {
      const rect = rects.get(key);
      if (rect && rect.width) return [rect, !key.startsWith("seat-"), true];
    }
    return null;
  };
  const moving = [];
  for (const el of root.querySelectorAll(".card[data-key]")) {
    const from = origin(el);
    if (from) moving.push([el, ...from]);
  }
  if (!moving.length) return;
  // The new places are read when the browser lays the page out for the next frame: a
  // ResizeObserver's first report comes after that layout and before the paint. Reading them
  // here would make the browser lay the page out at once, inside this input's task.
  const watch = new ResizeObserver(() => {
    watch.disconnect();
    const places = moving.map(([el]) => el.getBoundingClientRect());   // all read, then all started
    moving.forEach(([el, from, fromCard, turn], index) => {
      const now = places[index];
      if (!now.width || !el.isConnected) return;
      const dx = from.left + from.width / 2 - (now.left + now.width / 2);
      const dy = from.top + from.height / 2 - (now.top + now.height / 2);
      const scale = fromCard ? Math.max(0.3, Math.min(3, from.width / now.width)) : 0.6;
      if (!turn && Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(scale - 1) < 0.02) return;
      el.animate([
        { transform: `translate(${dx}px, ${dy}px) scale(${scale})${turn ? " rotateY(90deg)" : ""}` },
        { transform: "none" },
      ], { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
      // Above the cards it passes, by an animation of its own: a z-index among the keyframes
      // above would keep the travel off the compositor (a repaint every frame).
      el.animate({ zIndex: [20, 20] }, { duration: ms });
    });
  });
  window.__morphWatch = watch;
  for (const [el] of moving) watch.observe(el);
}
"""
