// The command box: typed actions ("discard 5c", "scarta cinque di monete", "odhodit 3") and
// questions ("hand", "discards 2", "stock", "waits", "last", "turn", "clock", "who", "help"), in
// the page's language or in English, answered in the live region with the sentences the server
// composed for the state (state.said).

import { fold } from "./dom.js";
import { places } from "./board.js";

const CODE = /^([1-9][csm]|ot|rf|wf|ws|gs|mk)$/;
const STEM = 3; // typed words match a name's words by their first letters

export class Commands {
  constructor(form, table, play, session) {
    Object.assign(this, { form, table, play, session, words: table.words });
    this.input = form.querySelector("[data-command]");
    this.output = form.querySelector("[data-command-answer]");
    this.verbs = [];
    for (const [key, list] of Object.entries(this.words.s.commands)) {
      for (const word of list) this.verbs.push([fold(word), key]);
    }
    this.verbs.sort((a, b) => b[0].length - a[0].length); // the longest first ("new deal")
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value;
      this.input.value = "";
      this.run(text);
    });
  }

  answer(text) {
    this.output.textContent = text;
    this.table.announcer.say(text);
  }

  async run(typed) {
    const text = fold(typed);
    if (!text) return;
    const found = this.verbs.find(([word]) => text === word || text.startsWith(`${word} `));
    if (!found) {
      const card = this.handCard(text); // a card alone discards it
      if (card) await this.action({ do: "discard", card });
      else this.answer(this.words.t("answer.unknown", { text: typed.trim().slice(0, 40) }));
      return;
    }
    const [word, key] = found;
    const rest = text.slice(word.length).trim();
    const act = { draw: { do: "draw" }, take: { do: "take" }, pass: { do: "pass" } };
    if (act[key]) await this.action(act[key]);
    else if (key === "discard") await this.discard(rest);
    else if (key === "declare") await this.declare(rest);
    else if (key === "hint") await this.play.hint();
    else if (key === "new") await this.session.newDeal();
    else if (key === "skip") this.table.skip();
    else this.answer(this.question(key, rest));
  }

  async action(action) {
    if (!this.play.legal(action)) {
      this.answer(this.words.t("answer.not-now", { status: this.table.status() }));
      return;
    }
    this.output.textContent = "";
    await this.play.act(action);
  }

  // The card of your hand that *text* names: its code, its position, or its name's words.
  handCard(text) {
    const hand = this.table.state && Array.isArray(this.table.state.hand) ? this.table.state.hand : [];
    if (CODE.test(text)) return hand.includes(text) ? text : null;
    if (/^[1-9]$/.test(text)) return hand[Number(text) - 1] ?? null;
    const typed = text.split(" ");
    // A typed word matches a word of the name by its start, the last letters free (an ending).
    const stem = (word) => (word.length <= STEM ? word : word.slice(0, Math.max(STEM, word.length - 2)));
    const names = (code) => [this.words.s.cards[code], this.words.s["cards.short"][code]].map((name) => fold(name).split(" "));
    const matches = new Set(hand.filter((code) => names(code).some((parts) =>
      typed.every((word) => parts.some((part) => part.startsWith(stem(word)))))));
    return matches.size === 1 ? [...matches][0] : null;
  }

  async discard(rest) {
    const card = rest ? this.handCard(rest) : null;
    if (!card) {
      this.answer(rest ? this.words.t("answer.not-in-hand", { text: rest.slice(0, 40) }) : this.words.t("answer.which-card"));
      return;
    }
    await this.action({ do: "discard", card });
  }

  async declare(rest) {
    const waits = this.table.legal().filter((action) => action.do === "declare").map((action) => action.wait);
    if (!waits.length) {
      this.answer(this.words.t("answer.not-now", { status: this.table.status() }));
      return;
    }
    let wait = waits.length === 1 ? waits[0] : null;
    if (rest) {
      const named = CODE.test(rest) ? rest : waits.find((code) => fold(this.words.s.cards[code]).startsWith(rest.slice(0, STEM)));
      wait = waits.includes(named) ? named : null;
    }
    if (!wait) {
      this.answer(this.table.state.said["which-wait"]);
      return;
    }
    await this.action({ do: "declare", wait });
  }

  seatNamed(rest) {
    const state = this.table.state;
    if (/^[0-2]$/.test(rest)) return Number(rest);
    const index = state.players.findIndex((name) => fold(name).startsWith(rest));
    return index >= 0 ? index : null;
  }

  question(key, rest) {
    const words = this.words;
    const state = this.table.state;
    if (!state) return words.t("status.loading");
    if (key === "help") return words.t("command.help.keys");
    if (key === "turn") return this.table.status();
    if (key === "stock") return words.count("count.stock", state.stock);
    if (key === "last") return this.table.log.last() ?? words.t("answer.nothing-yet");
    if (key === "hand") return state.said.hand;
    if (key === "clock") return this.clock(state);
    if (key === "who") return this.who(state);
    if (key === "discards") {
      const seats = rest ? [this.seatNamed(rest)] : Object.values(places(state.seat));
      if (seats[0] === null) return words.t("answer.which-seat");
      return seats.map((seat) => state.said.discards[seat]).join(" ");
    }
    // waits: every declared seat's public wait, and yours when your hand is ready.
    return state.said.waits;
  }

  // The turn clock: the server's sentence, its {count} the time left now.
  clock(state) {
    const left = this.table.deadline === null ? 0 : Math.max(0, Math.ceil((this.table.deadline - performance.now()) / 1000));
    return state.said.clock.replace("{count}", this.words.count("count.seconds", left));
  }

  // Who sits where: each seat's line, a person's by their presence as the socket last said.
  who(state) {
    return state.said.who.map((line, seat) => {
      if (line.now) return line.now;
      const info = (state.seats || [])[seat] || {};
      return info.connected ? line.online : line.offline;
    }).join(" ");
  }
}
