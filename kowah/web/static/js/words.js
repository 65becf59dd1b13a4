// The page's words in its language: the strings the server embedded, counted forms, card names
// (with their codes when the "show card codes" setting is on), lists and percentages.

import { format } from "./dom.js";

export class Words {
  constructor(data) {
    this.lang = data.lang;
    this.s = data.strings;
    this.codes = false;
    this.listFormat = new Intl.ListFormat(this.lang, { style: "long", type: "conjunction" });
    this.percentFormat = new Intl.NumberFormat(this.lang, { style: "percent", maximumFractionDigits: 0 });
  }

  t(key, values = {}) {
    return format(this.s[key] ?? key, values);
  }

  count(key, n) {
    const plural = this.s[key];
    return format(plural.forms[plural.index[Math.min(n, plural.index.length - 1)]], { count: n });
  }

  // A card's name for a sentence; with the codes setting on, "Five of Coins (5c)".
  card(code) {
    const name = this.s.cards[code] ?? code;
    return this.codes ? `${name} (${code})` : name;
  }

  // A card's name alone, for a picture's alternative text.
  cardName(code) {
    return this.s.cards[code] ?? code;
  }

  cards(codes) {
    return this.list(codes.map((code) => this.card(code)));
  }

  list(items) {
    return items.length ? this.listFormat.format(items) : "—";
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
