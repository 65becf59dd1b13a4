// What happened: the log beside the table, and the live region that screen readers announce.

import { LIVE_LINES } from "./constants.js";
import { element } from "./dom.js";

export class Log {
  constructor(list) {
    this.list = list;
    this.lines = []; // every line, for the command box's "last"
  }

  clear() {
    this.list.replaceChildren();
    this.lines = [];
  }

  add(event, me) {
    if (!event.text) return;
    this.lines.push(event.text);
    const item = element("li", { text: event.text, "data-kind": event.kind });
    if (event.seat === me && me !== null) item.classList.add("mine");
    if (event.kind === "win" || event.kind === "drawn") item.classList.add("win");
    this.list.append(item);
    this.list.scrollTop = this.list.scrollHeight;
  }

  last() {
    return this.lines.length ? this.lines[this.lines.length - 1] : null;
  }
}

// The texts of the others' moves among *events* (not the table's own events): what a
// screen reader hears of the deal before your first turn, as the log shows it.
export function othersMoves(events, me) {
  const moves = new Set(["draw", "take", "discard", "declare"]);
  return events.filter((event) => moves.has(event.kind) && event.seat !== me).map((event) => event.text);
}

export class Announcer {
  constructor(region) {
    this.region = region;
    this.said = []; // everything announced, oldest first (kept short)
  }

  say(text) {
    if (!text) return;
    this.region.append(element("p", { text }));
    while (this.region.children.length > LIVE_LINES) this.region.firstElementChild.remove();
    this.said.push(text);
    if (this.said.length > 200) this.said.shift();
  }
}
