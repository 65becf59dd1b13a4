// The end of the deal: the outcome's sentence (from the server, with its multiplier), the
// winning hand split as it won, and what to do next (new deal, review, download).

import { element } from "./dom.js";
import { picture } from "./board.js";

export function renderOutcome(root, words, shown, recordUrl, lang) {
  const box = root.querySelector(".outcome");
  if (!shown.outcome) {
    box.hidden = true;
    box.removeAttribute("data-outcome");
    return false;
  }
  const opened = box.hidden;
  box.hidden = false;
  box.dataset.outcome = shown.outcome.result;
  const lines = [shown.outcome_text];
  const won = shown.winning_hand;
  if (won && shown.seat !== null && shown.seat !== undefined && won.seat !== shown.seat) lines.push(words.t("lost"));
  box.querySelector(".outcome-text").textContent = lines.join(" ");
  const winning = box.querySelector(".winning");
  if (won) {
    const title = won.seat === shown.seat ? words.t("winning.yours") : shown.said.winning;
    const groups = won.groups.map((group, index) => element("div", { class: "group", role: "group", "aria-label": shown.said.groups[index] },
      ...group.map((code) => picture(words, code, 48, lang))));
    const card = element("div", { class: "won", "data-winning-card": won.card, tabindex: "0" }, picture(words, won.card, 48, lang),
      element("span", { text: words.t("winning.card") }));
    winning.replaceChildren(element("h3", { class: "sr-only", text: title }), ...groups, card);
  } else {
    winning.replaceChildren();
  }
  box.querySelector("[data-action=download-record]").href = recordUrl;
  return opened;
}
