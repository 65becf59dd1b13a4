// The page's words in its language: the strings the server embedded, counted forms, and the
// sentences that name a card, finished by the text layer (with the cards' codes when the
// "show card codes" setting is on). Nothing here joins a name to text.

import { format } from "./dom.js";

export class Words {
  constructor(data) {
    this.lang = data.lang;
    this.s = data.strings;
    this.codes = false;
    this.percentFormat = new Intl.NumberFormat(this.lang, { style: "percent", maximumFractionDigits: 0 });
  }

  t(key, values = {}) {
    return format(this.s[key] ?? key, values);
  }

  count(key, n) {
    const plural = this.s[key];
    return format(plural.forms[plural.index[Math.min(n, plural.index.length - 1)]], { count: n });
  }

  // A card's name on its own (a label, never inside a sentence); with the codes setting on,
  // "Five of Coins (5c)", as the server wrote it.
  card(code) {
    return this.said("name", code) ?? code;
  }

  // A sentence that names one card, finished by the text layer (kowah/web/said.py) for every
  // card: "take", "discard", "declare"… Numbers it leaves ({position}) come in *values*.
  said(key, code, values = {}) {
    const table = this.s[this.codes ? "said.codes" : "said"][key];
    return table && code in table ? format(table[code], values) : undefined;
  }

  // A card's name alone, for a picture's alternative text.
  cardName(code) {
    return this.s.cards[code] ?? code;
  }

  percent(value) {
    return this.percentFormat.format(value / 100);
  }

  key(action) {
    return this.s["keys.letters"][action];
  }

  // "m:ss" for the turn clock.
  time(seconds) {
    const whole = Math.max(0, Math.ceil(seconds));
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  }
}
