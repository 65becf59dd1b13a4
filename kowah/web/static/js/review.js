// The review of a finished deal: the server reads the record (POST /api/review) and sends every
// step with all hands face up and, at each of your decisions, the coach's advice; this module
// shows them one step at a time (buttons, arrow keys, Home and End).

import { element } from "./dom.js";
import { picture } from "./board.js";

export class Review {
  constructor(table) {
    Object.assign(this, { table, words: table.words, api: table.api, lang: table.lang });
    this.panel = document.querySelector("[data-review]");
    this.tablePanel = document.getElementById("panel-table");
    this.data = null;
    this.index = 0;
    this.panel.addEventListener("click", (event) => {
      const button = event.target.closest("[data-review-step], [data-action=review-close]");
      if (!button) return;
      if (button.dataset.reviewStep) this.go(button.dataset.reviewStep);
      else this.close();
    });
    document.addEventListener("keydown", (event) => this.key(event));
    document.querySelector("[data-record-file]").addEventListener("change", (event) => this.fromFile(event.target));
  }

  get open() {
    return !this.panel.hidden;
  }

  async fromGame() {
    const state = this.table.state;
    try {
      const record = await this.api.record(state.id);
      this.show(await this.api.review(record, state.seat ?? 0));
    } catch (error) {
      this.table.problem(error);
    }
  }

  async fromFile(input) {
    const file = input.files && input.files[0];
    input.value = "";
    if (!file) return;
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch {
      this.table.alert(this.words.t("record.unreadable"));
      return;
    }
    try {
      this.show(await this.api.review(record, 0));
    } catch (error) {
      this.table.alert(this.words.t("record.bad", { problem: error.message }));
    }
  }

  show(data) {
    this.data = data;
    this.index = 0;
    this.tablePanel.hidden = true;
    this.panel.hidden = false;
    this.render();
    this.panel.querySelector("[data-review-step=next]").focus();
  }

  close() {
    this.panel.hidden = true;
    this.tablePanel.hidden = false;
    const back = this.tablePanel.querySelector("[data-action=review]");
    if (back && back.offsetParent !== null) back.focus();
  }

  go(where) {
    const last = this.data.steps.length - 1;
    const next = { start: 0, prev: this.index - 1, next: this.index + 1, end: last }[where];
    this.index = Math.max(0, Math.min(last, next));
    this.render();
  }

  key(event) {
    if (!this.open || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, dialog")) return;
    const where = { ArrowLeft: "prev", ArrowRight: "next", Home: "start", End: "end" }[event.key];
    if (!where) return;
    this.go(where);
    event.preventDefault();
  }

  seatBox(step, seat) {
    const words = this.words;
    const data = this.data;
    const name = data.players[seat];
    const hand = element("ul", { class: "review-hand", "aria-label": data.said["hand-of"][seat] },
      ...step.hands[seat].map((code) => element("li", {}, picture(words, code, 40, this.lang))));
    const pile = element("ul", { class: "review-hand pile", "aria-label": data.said["discards-of"][seat] },
      ...step.discards[seat].map((code) => element("li", {}, picture(words, code, 26, this.lang))));
    const wait = step.declared[seat];
    const acting = step.to_move && step.to_move[0] === seat && !step.outcome;
    return element("section", { class: `review-seat${acting ? " acting" : ""}`, "data-review-seat": String(seat) },
      element("h3", { class: "seat-name", text: name },
        acting ? element("span", { class: "badge turn-mark", text: words.t("turn") }) : null,
        wait ? element("span", { class: "declared", text: words.said("declared", wait) }) : null),
      hand, element("div", { class: "pile-part" }, element("span", { class: "label", text: words.t("discards") }), pile));
  }

  render() {
    const words = this.words;
    const steps = this.data.steps;
    const step = steps[this.index];
    this.panel.dataset.step = String(this.index);
    this.panel.dataset.count = String(steps.length - 1);
    this.panel.querySelector("[data-review-position]").textContent = words.t("review.position", { step: this.index, count: steps.length - 1 });
    this.panel.querySelector("[data-review-event]").textContent = step.text.join(" ");
    for (const [where, blocked] of [["start", this.index === 0], ["prev", this.index === 0],
      ["next", this.index === steps.length - 1], ["end", this.index === steps.length - 1]]) {
      this.panel.querySelector(`[data-review-step=${where}]`).setAttribute("aria-disabled", String(blocked));
    }
    const middle = element("div", { class: "review-middle" },
      element("p", { "data-review-stock": String(step.stock) }, words.t("stock.count", { count: words.count("count.cards", step.stock) })),
      element("p", {}, step.latest_discard ? words.said("latest", step.latest_discard) : words.t("latest.none")));
    const seats = [0, 1, 2].map((seat) => this.seatBox(step, seat));
    this.panel.querySelector("[data-review-board]").replaceChildren(middle, ...seats);
    const advice = this.panel.querySelector("[data-review-advice]");
    const coach = step.coach;
    if (!coach) {
      advice.replaceChildren(element("p", { text: words.t("review.no-advice") }));
      return;
    }
    const tag = (text) => element("span", { class: "choice-tag", text });
    const advised = coach.advised || {};
    const coachs = (choice) => (advised.do === "discard" && advised.card === choice.card)
      || (advised.do === "declare" && advised.wait === choice.card);
    const choices = element("ul", {}, ...coach.choices.map((choice) => element("li", {
      class: [choice.chosen ? "chosen" : "", coachs(choice) ? "best" : ""].join(" ").trim(), "data-choice": choice.card,
    }, choice.text, choice.chosen ? tag(words.t("review.your-choice")) : null,
    coachs(choice) ? tag(words.t("review.coach-choice")) : null)));
    advice.replaceChildren(...coach.lines.map((line) => element("p", { text: line })), coach.choices.length ? choices : "");
  }
}
