// Friends at one table: the "Play with friends" form (how many people, their names, the AI level
// for the other seats, a turn clock, when to start), and beside the table who sits where, who is
// connected, the invite links with copy buttons, and whether live updates work.

import { element } from "./dom.js";

export class Friends {
  constructor(table, session, settings) {
    Object.assign(this, { table, session, settings, words: table.words });
    this.dialog = document.querySelector("[data-friends-dialog]");
    this.form = this.dialog.querySelector("[data-friends-form]");
    this.panel = document.querySelector("[data-friends-panel]");
    this.mode = null;
    this.created = null;
    this.linksShown = null;  // the links last shown (their labels, addresses and attributes)
    document.querySelector("[data-action=friends]").addEventListener("click", () => this.openForm());
    this.form.addEventListener("change", () => this.syncForm());
    this.dialog.addEventListener("close", () => {
      if (this.dialog.returnValue === "create") this.create();
    });
    table.onChange((kind, value) => {
      if (kind === "mode") this.mode = value;
      if (kind === "state" || kind === "mode" || kind === "presence") this.render();
    });
  }

  openForm() {
    this.form.elements.namedItem("opponents").value = this.settings.opponents();
    this.syncForm();
    this.dialog.returnValue = "";
    this.dialog.showModal();
  }

  syncForm() {
    const three = this.form.elements.namedItem("humans").value === "3";
    this.form.querySelector("[data-third]").hidden = !three;
  }

  async create() {
    const field = (name) => this.form.elements.namedItem(name).value;
    const humans = Number(field("humans"));
    const names = [0, 1, 2].slice(0, humans).map((seat) => field(`name${seat}`).trim() || null);
    const seconds = field("turn_seconds");
    const options = {
      humans, opponents: field("opponents"), start: field("start"),
      turn_seconds: seconds ? Number(seconds) : null,
    };
    if (names.some((name) => name)) options.names = names;
    try {
      this.created = await this.session.friends(options);
      this.render();
      const first = this.panel.querySelector("[data-invite] input");
      if (first) first.focus();
    } catch (error) {
      this.table.problem(error);
    }
  }

  // The links of the seats not taken yet (the creator's, while the table waits for people).
  invites(state) {
    if (state.seat !== 0) return [];
    if (state.invites && state.invites.length) return state.invites;
    return this.created && this.created.id === state.id && state.status === "waiting" ? this.created.invites || [] : [];
  }

  link(label, url, attributes) {
    const input = element("input", { type: "text", readonly: "", value: url, "aria-label": label });
    const copy = element("button", { type: "button", class: "secondary", "data-copy": "" }, this.words.t("friends.copy"));
    copy.addEventListener("click", async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        document.execCommand("copy");
      }
      this.table.announcer.say(this.words.t("friends.copied"));
      copy.textContent = this.words.t("friends.copied");
    });
    return element("div", { class: "invite", ...attributes }, element("span", { text: label }), input, copy);
  }

  render() {
    const state = this.table.state;
    const shared = state && ((state.humans ?? 1) > 1 || state.seat === null);
    this.panel.hidden = !shared;
    document.querySelector("[data-summary]").textContent = this.words.t(shared ? "summary.friends" : "summary");
    if (!shared) return;
    const connection = this.panel.querySelector("[data-connection]");
    connection.textContent = this.mode === "polling" ? this.words.t("connection.polling") : this.mode === "live" ? this.words.t("connection.live") : "";
    connection.classList.toggle("polling", this.mode === "polling");
    connection.dataset.connection = this.mode || "";
    const people = state.seats || [];
    this.panel.querySelector("[data-people]").replaceChildren(...people.map((info, seat) => {
      let what = this.words.t("friends.ai");
      if (info.left) what = this.words.t("friends.gone");
      else if (info.kind === "person" && !info.joined) what = this.words.t("friends.not-here");
      else if (info.handed_over) what = this.words.t("friends.handed");
      else if (info.kind === "person") what = this.words.t(info.connected ? "friends.online" : "friends.offline");
      return element("li", { "data-person": String(seat) }, element("span", { text: state.said.people[seat] }), element("span", { class: "badge", text: what }));
    }));
    const wanted = this.invites(state).map((invite) => [this.words.t("friends.invite", { seat: invite.seat }), invite.url,
      { "data-invite": String(invite.seat) }]);
    wanted.push([this.words.t("friends.watch"), `${location.origin}/games/${encodeURIComponent(state.id)}`, { "data-watch": "" }]);
    // The links are made again only when they change: a state that changes nothing in them
    // leaves the focus on a link's button and its "Link copied." in place.
    const key = JSON.stringify(wanted);
    if (key === this.linksShown) return;
    this.linksShown = key;
    this.panel.querySelector("[data-invites]").replaceChildren(...wanted.map(([label, url, attributes]) => this.link(label, url, attributes)));
  }
}
