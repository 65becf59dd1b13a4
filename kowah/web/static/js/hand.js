// Drawing your seat: your hand (grouped by rank), your discards, the status line and the action
// buttons, each enabled only when the server lists the action as legal now.

import { element } from "./dom.js";
import { badges, declaredBadge, picture, pile } from "./board.js";

// A picture whose button already names its card (so that its visible text is in the name).
const decorative = (image) => {
  image.alt = "";
  return image;
};

// Cards of one rank (or one honour) sit together; the codes say which (R3).
const groupOf = (code) => (/^[1-9]/.test(code) ? code[0] : code);

function handButtons(words, shown, ui, lang) {
  const discards = new Set(ui.legal.filter((action) => action.do === "discard").map((action) => action.card));
  const locked = Boolean(shown.declared && shown.declared[shown.seat]);
  const groups = [];
  let last = null;
  let marked = false;
  shown.hand.forEach((code, index) => {
    if (groupOf(code) !== last) {
      groups.push(element("div", { class: "group" }));
      last = groupOf(code);
    }
    const enabled = discards.has(code) && !locked;
    const fresh = code === ui.fresh && !marked; // one copy, even when the hand holds two
    marked = marked || fresh;
    // The button's name, finished by the text layer: "Discard the Five of Coins".
    const said = fresh ? (enabled ? "discard.new" : "new") : (enabled ? "discard" : "name");
    const button = element("button", {
      type: "button", class: fresh ? "card new" : "card", "data-card": code, "data-position": String(index + 1),
      "aria-disabled": enabled ? null : "true", "aria-label": words.said(said, code),
      title: words.said("title", code, { position: index + 1 }),
    }, decorative(picture(words, code, 68, lang)), // the button's name says the card
    fresh ? element("span", { class: "tag new", text: words.t("new-card"), "aria-hidden": "true" }) : null,
    element("span", { class: "pos", "aria-hidden": "true", text: String(index + 1) }));
    groups[groups.length - 1].append(button);
  });
  return { groups, locked };
}

function renderHand(root, words, shown, ui, lang) {
  const hand = root.querySelector("[data-hand=you]");
  const focused = hand.contains(document.activeElement) ? document.activeElement.dataset.position : null;
  if (!Array.isArray(shown.hand)) { // a spectator sees the bottom seat's backs
    const fan = element("div", { class: "backs" },
      element("span", { class: "fan", "aria-hidden": "true" },
        ...Array.from({ length: shown.hand_sizes[shown.viewSeat] }, () => picture(words, null, 24, lang))),
      element("span", { class: "count-text", text: words.count("count.cards", shown.hand_sizes[shown.viewSeat]) }));
    hand.replaceChildren(fan);
    return;
  }
  const { groups, locked } = handButtons(words, shown, ui, lang);
  hand.classList.toggle("locked", locked);
  hand.style.setProperty("--n", String(Math.max(shown.hand.length, 1)));
  hand.style.setProperty("--breaks", String(Math.max(groups.length - 1, 0)));
  hand.replaceChildren(...groups);
  if (focused) {
    const again = hand.querySelector(`[data-position="${focused}"]`);
    if (again) again.focus();
  }
}

function renderActions(root, words, shown, ui) {
  const kinds = new Set(ui.legal.map((action) => action.do));
  const toolbar = root.querySelector(".actions");
  const player = shown.seat !== null && shown.seat !== undefined;
  for (const name of ["draw", "take", "pass", "hint"]) {
    const button = toolbar.querySelector(`[data-action=${name}]`);
    button.hidden = !player;
    button.disabled = name === "hint" ? ui.legal.length === 0 : !kinds.has(name);
  }
  toolbar.querySelector(".take-text").textContent = shown.latest_discard
    ? words.said("take", shown.latest_discard) : words.t("take.plain");
  const declares = ui.legal.filter((action) => action.do === "declare");
  const box = toolbar.querySelector(".declares");
  const focusedWait = box.contains(document.activeElement) ? document.activeElement.dataset.wait : null;
  box.replaceChildren(...declares.map((action, index) => element("button", {
    type: "button", "data-action": "declare", "data-wait": action.wait,
    "aria-label": words.said("declare", action.wait),
  }, index === 0 ? element("kbd", { text: words.key("declare") }) : null, " ",
  declares.length > 1 ? words.said("declare", action.wait) : words.t("declare"))));
  if (focusedWait) {
    const again = box.querySelector(`[data-wait="${focusedWait}"]`);
    if (again) again.focus();
  }
  const friends = (shown.humans ?? 1) > 1;
  const creator = shown.seat === 0;
  toolbar.querySelector("[data-action=start-now]").hidden = !(creator && shown.status === "waiting");
  const info = shown.seats && player ? shown.seats[shown.seat] : null;
  toolbar.querySelector("[data-action=leave]").hidden = !(friends && player && shown.status === "playing" && info && !info.left);
}

export function renderYou(root, words, shown, ui, lang) {
  const box = root.querySelector("[data-place=bottom]");
  const seat = shown.viewSeat;
  box.dataset.seat = String(seat);
  const own = shown.seat !== null && shown.seat !== undefined;
  const title = root.querySelector("#you-title");
  title.replaceChildren(element("span", { text: own ? words.t("hand") : shown.players[seat] }),
    ...badges(words, shown, seat, ui), declaredBadge(words, shown, seat, lang, own) || "");
  box.querySelector(".you-discards").replaceChildren(element("span", { class: "label", text: words.t("discards") }),
    pile(words, shown, seat, ui, lang));
  renderHand(root, words, shown, ui, lang);
  root.querySelector("[data-status]").textContent = ui.status;
  renderActions(root, words, shown, ui);
}
