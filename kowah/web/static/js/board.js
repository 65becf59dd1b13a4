// Drawing the table around your hand: the two other seats (names, badges, backs, discards) and
// the middle (stock, latest discard, public draws). Everything comes from the state the server
// sent (or the state right after an event, during playback): nothing is worked out here.

import { CARDS } from "./constants.js";
import { element, format } from "./dom.js";

export function picture(words, code, width, lang) {
  const src = `${CARDS}${code === null ? "back" : code}.svg?lang=${lang}`;
  const alt = code === null ? words.t("back") : words.cardName(code);
  return element("img", { src, alt, width, height: Math.round(width * 1.4), draggable: "false" });
}

// The seats in their places: yours at the bottom, the next in rotation on the left.
export function places(seat) {
  const me = seat ?? 0;
  return { bottom: me, left: (me + 1) % 3, right: (me + 2) % 3 };
}

export function mover(shown) {
  if (shown.outcome || shown.status === "waiting" || shown.status === "closed") return null;
  return shown.to_move && shown.to_move.length ? shown.to_move[0] : null;
}

// The badges of a seat's heading: turn, presence, clock, declared wait. Each is focusable and
// says what it is, so that the keyboard reaches it.
export function badges(words, shown, seat, ui) {
  const list = [];
  // The visible word, and for screen readers whose badge it is.
  const badge = (css, text, extra = {}) => element("span", { class: `badge ${css}`, tabindex: "0", ...extra },
    text, " ", element("span", { class: "sr-only", text: shown.said.owner[seat] }));
  if (mover(shown) === seat) list.push(badge("turn-mark", words.t("turn")));
  const info = shown.seats ? shown.seats[seat] : null;
  if (info && (shown.humans ?? 1) > 1) {
    let text = null;
    let css = "presence";
    if (info.left) text = words.t("friends.gone");
    else if (info.kind === "ai") text = words.t("friends.ai");
    else if (!info.joined) text = words.t("friends.not-here");
    else {
      text = words.t(info.connected ? "friends.online" : "friends.offline");
      css += info.connected ? " online" : " offline";
    }
    list.push(badge(css, text, { "data-presence": String(seat) }));
  }
  if (ui.clock && ui.clock.seat === seat) {
    const text = words.t("clock", { time: words.time(ui.clock.left) });
    list.push(badge(`clock${ui.clock.low ? " low" : ""}`, text, { "data-clock": String(seat) }));
  }
  return list;
}

export function declaredBadge(words, shown, seat, lang, own) {
  const wait = shown.declared ? shown.declared[seat] : null;
  if (!wait) return null;
  const title = own ? words.t("your-wait") : words.t("declared");
  const image = picture(words, wait, 20, lang);
  image.alt = "";
  return element("span", { class: "declared", "data-declared": wait, tabindex: "0" },
    element("span", { text: title }), image, element("span", { text: words.card(wait) }));
}

// A seat's discards: one tab stop; the arrow keys move along its cards (see keyboard.js).
export function pile(words, shown, seat, ui, lang) {
  const cards = shown.discards[seat];
  const row = element("ol", {
    class: "pile-row", "data-pile": String(seat), "data-roving": "", tabindex: "0",
    "aria-label": format(shown.said.pile[seat], { count: words.count("count.cards", cards.length) }),
  });
  const latest = shown.latest_discard && ui.lastDiscarder === seat;
  cards.forEach((code, index) => {
    const item = element("li", { "data-card": code, "data-item": "", tabindex: "-1" },
      picture(words, code, 30, lang));
    if (latest && index === cards.length - 1) item.classList.add("fresh");
    row.append(item);
  });
  return row;
}

function backs(words, count, lang) {
  const fan = element("span", { class: "fan", "aria-hidden": "true" });
  for (let i = 0; i < count; i += 1) fan.append(picture(words, null, 24, lang));
  return element("div", { class: "backs" }, fan, element("span", { class: "count-text", text: words.count("count.cards", count) }));
}

export function renderOther(box, words, shown, seat, ui, lang) {
  box.dataset.seat = String(seat);
  box.classList.toggle("turn", mover(shown) === seat);
  const name = shown.players[seat];
  box.setAttribute("aria-label", name);
  const title = element("h2", { class: "seat-name" }, element("span", { text: name }), ...badges(words, shown, seat, ui));
  box.replaceChildren(title, backs(words, shown.hand_sizes[seat], lang),
    declaredBadge(words, shown, seat, lang, false) || "",
    element("span", { class: "label", text: words.t("discards") }), pile(words, shown, seat, ui, lang));
}

// A seat's short name, for tight spaces: "You", a person's name, or "Seat 2".
export function shortName(words, shown, seat) {
  if (seat === shown.seat) return shown.players[seat];
  const person = shown.seats && shown.seats[seat] ? shown.seats[seat].name : null;
  return person || words.t(`seat.${seat}`);
}

export function renderMiddle(root, words, shown, legal, lang) {
  const kinds = new Set(legal.map((action) => action.do));
  const stock = root.querySelector("[data-stock]");
  stock.textContent = String(shown.stock);
  stock.dataset.stock = String(shown.stock);
  const stockButton = root.querySelector("[data-action=stock]");
  stockButton.setAttribute("aria-disabled", String(!kinds.has("draw")));
  stockButton.setAttribute("aria-label", words.t(kinds.has("draw") ? "stock.draw.count" : "stock.count",
    { count: words.count("count.cards", shown.stock) }));
  const latest = root.querySelector(".latest-card");
  if (shown.latest_discard) {
    const code = shown.latest_discard;
    const button = element("button", {
      type: "button", class: "pile-button", "data-action": "latest", "data-card": code, "aria-disabled": String(!kinds.has("take")),
      "aria-label": words.said(kinds.has("take") ? "take" : "latest", code),
    }, picture(words, code, 56, lang));
    latest.replaceChildren(button, element("span", { class: "name", text: words.card(code), "aria-hidden": "true" }));
  } else {
    latest.replaceChildren(element("span", { class: "name", text: "—" }));
  }
  const box = root.querySelector("[data-public]");
  box.hidden = shown.public_draws.length === 0;
  box.querySelector("ol").replaceChildren(...shown.public_draws.slice(-8).map(([seat, code]) =>
    element("li", { tabindex: "0" }, picture(words, code, 30, lang), element("span", { text: shortName(words, shown, seat) }))));
}
