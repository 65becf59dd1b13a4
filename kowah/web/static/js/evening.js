// An evening at a friends' table: the next deal for everyone, leaving or closing the table
// (each asked first, saying what it does to whom), handing an absent person's seat to the AI,
// quick phrases, and the earlier deals' results with their records. Every sentence comes
// finished from the server, in the page's language; this module only places it.

import { ask } from "./confirm.js";
import { element } from "./dom.js";

export class Evening {
  constructor(table, session) {
    Object.assign(this, { table, session, words: table.words, api: table.api });
    session.evening = this;
    this.box = document.querySelector("[data-evening]");
    this.bypass = false;
    table.onChange((kind) => {
      if (kind === "state" || kind === "presence") this.render();
    });
    this.box.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button || button.disabled) return;
      if (button.dataset.phrase) this.say(button.dataset.phrase);
      else if ("nextNow" in button.dataset) this.next(true);
      else if (button.dataset.handOver) this.handOver(Number(button.dataset.handOver));
    });
  }

  // Whether *state* is a friends' table this page has a seat at.
  seated(state = this.table.state) {
    return Boolean(state && (state.humans ?? 1) > 1 && state.seat !== null && state.seat !== undefined
      && state.status !== "closed" && !state.seats?.[state.seat]?.left);
  }

  // Whether "New deal" is this module's: at a friends' table this page has a seat at.
  takesOver() {
    return !this.bypass && this.seated();
  }

  // What "New deal" does at a friends' table. At the end, everyone's is the next deal; during
  // a deal, a guest's is leaving the table and the creator's is closing it for everyone; each
  // is asked first.
  async instead() {
    const state = this.table.state;
    if (state.outcome) return this.next(false);
    if (state.seat !== 0) return this.leave();
    if (!await ask(this.words.t("close-table.confirm"), this.words.t("close-table"))) return;
    this.bypass = true;
    try {
      await this.session.newDeal(false);
    } finally {
      this.bypass = false;
    }
  }

  async run(work) {
    const table = this.table;
    try {
      await table.absorb(await work(table.state.id));
    } catch (error) {
      table.problem(error);
    }
  }

  next(now) {
    return this.run((id) => this.api.next(id, now));
  }

  async leave() {
    if (!await ask(this.words.t("leave-table.confirm"), this.words.t("leave-table"))) return;
    await this.run((id) => this.api.leave(id));
  }

  async handOver(seat) {
    if (!await ask(this.words.t("hand-over.confirm"), this.words.t("hand-over"))) return;
    await this.run((id) => this.api.handOver(id, seat));
  }

  say(phrase) {
    return this.run((id) => this.api.say(id, phrase));
  }

  render() {
    const state = this.table.state;
    const seated = this.seated(state);
    const button = document.querySelector(".outcome [data-action=new-deal]");
    button.textContent = this.words.t(seated ? "next-deal" : "new-deal");
    this.box.hidden = !state || (state.humans ?? 1) < 2;
    if (this.box.hidden) return;
    this.box.replaceChildren(...[this.nextPart(state), seated ? this.absent(state) : null,
      seated ? this.phrases() : null, this.deals(state)].filter(Boolean));
  }

  // After asking for the next deal: what happens now; the creator may start it at once.
  nextPart(state) {
    if (!state.outcome || !(state.ready || []).includes(state.seat)) return null;
    const part = element("div", { class: "next", "data-next": "" },
      element("p", { role: "status", text: this.words.t("next-deal.asked") }));
    if (state.seat === 0) {
      part.append(element("button", { type: "button", class: "primary", "data-next-now": "" },
        this.words.t("next-deal.now")));
    }
    return part;
  }

  // The creator's buttons to hand an absent person's seat (offline, or never came) to the AI.
  absent(state) {
    if (state.seat !== 0) return null;
    const rows = (state.seats || []).filter((info) => info.seat !== 0 && info.kind === "person"
      && !info.left && !info.handed_over && (!info.joined || !info.connected)).map((info) => {
      const name = element("span", { id: `absent-${info.seat}`, text: state.players[info.seat] });
      return element("li", {}, name, element("button", {
        type: "button", class: "secondary", "data-hand-over": String(info.seat),
        "aria-describedby": `absent-${info.seat}`,
      }, this.words.t("hand-over")));
    });
    if (!rows.length) return null;
    return element("div", { class: "absent" },
      element("h3", { text: this.words.t("hand-over.title") }), element("ul", {}, ...rows));
  }

  phrases() {
    const buttons = (this.words.s["phrases.list"] || []).map((phrase) => element("button", {
      type: "button", class: "ghost", "data-phrase": phrase.id,
    }, phrase.text));
    return element("div", { class: "phrases", role: "group", "aria-labelledby": "phrases-title" },
      element("h3", { id: "phrases-title", text: this.words.t("phrases") }), ...buttons);
  }

  // The table's earlier deals: each one's result (said by the server) and its record.
  deals(state) {
    if (!(state.deals || []).length) return null;
    const items = state.deals.map((deal) => {
      const id = `deal-${deal.number}`;
      return element("li", { "data-deal": String(deal.number) }, element("span", { id, text: deal.text }),
        element("a", { href: deal.record, download: `kowah-${state.id.slice(0, 8)}-${deal.number}.json`,
          "aria-describedby": id }, this.words.t("download")));
    });
    return element("div", { class: "deals" }, element("h3", { text: this.words.t("deals") }),
      element("ol", {}, ...items));
  }
}
