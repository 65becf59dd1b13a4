// The table: shows seat 0's state, offers its legal actions, plays the AIs' moves back at the
// chosen pace, and announces what happens to screen readers.

import * as api from "./api.js";

const GAME_KEY = "kowah-game";
const SUITS = { c: 0, s: 1, m: 2 };
const HONOURS = ["ot", "rf", "wf", "ws", "gs", "mk"];

function cardIndex(code) {
  const honour = HONOURS.indexOf(code);
  if (honour >= 0) return 27 + honour;
  return (Number(code[0]) - 1) * 3 + SUITS[code[1]];
}

function cardGroup(code) {
  const index = cardIndex(code);
  return index < 27 ? Math.floor(index / 3) : index - 18;
}

function sleep(seconds) {
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

export class Table {
  constructor(root, data) {
    this.root = root;
    this.lang = data.lang;
    this.s = data.strings;
    this.pace = 0.8;
    this.state = null;
    this.busy = false;
    this.fresh = null; // the card seat 0 just drew or took
    this.logged = 0; // events of this game already in the log
    this.q = (selector) => root.querySelector(selector);
    this.live = document.querySelector("[data-live]");
    this.bind();
  }

  setPace(pace) {
    this.pace = Math.max(0, Math.min(5, Number(pace) || 0));
  }

  t(key, values = {}) {
    return format(this.s[key] ?? key, values);
  }

  count(n) {
    const plural = this.s["count.cards"];
    return format(plural.forms[plural.index[Math.min(n, plural.index.length - 1)]], { count: n });
  }

  name(code) {
    return this.s.cards[code] ?? code;
  }

  img(code, width) {
    const src = code === null ? `/cards/back.svg?lang=${this.lang}` : `/cards/${code}.svg?lang=${this.lang}`;
    const alt = code === null ? this.s.back : this.name(code);
    return element("img", { src, alt, width, height: Math.round(width * 1.4), draggable: "false" });
  }

  // -- starting ---------------------------------------------------------------------------

  async start() {
    let id = null;
    try {
      id = localStorage.getItem(GAME_KEY);
    } catch {
      id = null;
    }
    if (id) {
      try {
        this.show(await api.getGame(id, this.lang));
        return;
      } catch (error) {
        if (error.status !== 404) {
          this.problem(error);
          return;
        }
      }
    }
    await this.newDeal();
  }

  async newDeal() {
    if (this.busy) return;
    this.busy = true;
    this.alert("");
    this.render();
    try {
      const state = await api.newGame(this.lang, this.opponents ? { opponents: this.opponents() } : {});
      try {
        localStorage.setItem(GAME_KEY, state.id);
      } catch {
        // the game lasts for this page only
      }
      this.q("[data-log]").replaceChildren();
      this.logged = 0;
      this.state = null;
      this.fresh = null;
      this.show(state);
      this.announce(this.t("status.loading"));
    } catch (error) {
      this.problem(error);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  // -- acting -----------------------------------------------------------------------------

  bind() {
    this.root.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-action], button[data-card]");
      if (!button || button.disabled || !this.root.contains(button)) return;
      const action = button.dataset.action;
      if (action === "new-deal") this.newDeal();
      else if (action === "hint") this.hint();
      else if (action === "draw") this.send({ do: "draw" });
      else if (action === "take") this.send({ do: "take" });
      else if (action === "pass") this.send({ do: "pass" });
      else if (action === "declare") this.send({ do: "declare", wait: button.dataset.wait });
      else if (button.dataset.card && button.closest("[data-hand=you]")) {
        this.send({ do: "discard", card: button.dataset.card });
      }
    });
    document.addEventListener("keydown", (event) => this.key(event));
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target.closest && target.closest("select, input, textarea, [role=tab]")) return;
    if (document.getElementById("panel-table").hidden) return;
    const key = event.key.toLowerCase();
    const click = (selector) => {
      const button = this.root.querySelector(selector);
      if (button && !button.disabled && !button.hidden) {
        button.click();
        return true;
      }
      return false;
    };
    let done = false;
    if (key === "d") done = click("[data-action=draw]");
    else if (key === "t") done = click("[data-action=take]");
    else if (key === "p") done = click("[data-action=pass]");
    else if (key === "n") done = click("[data-action=new-deal]");
    else if (key === "h") done = click("[data-action=hint]");
    else if (key === "c") {
      const declares = [...this.root.querySelectorAll("[data-action=declare]:not(:disabled)")];
      if (declares.length === 1) done = click("[data-action=declare]");
      else if (declares.length > 1) {
        declares[0].focus();
        done = true;
      }
    } else if (/^[1-9]$/.test(key)) {
      const cards = [...this.root.querySelectorAll("[data-hand=you] [data-card]")];
      const card = cards[Number(key) - 1];
      if (card && !card.disabled) {
        card.click();
        done = true;
      }
    } else if ((key === "arrowright" || key === "arrowleft") && target.closest("[data-hand=you]")) {
      const cards = [...this.root.querySelectorAll("[data-hand=you] [data-card]:not(:disabled)")];
      const index = cards.indexOf(target.closest("[data-card]"));
      const next = cards[(index + (key === "arrowright" ? 1 : -1) + cards.length) % cards.length];
      if (next) next.focus();
      done = true;
    }
    if (done) event.preventDefault();
  }

  async send(action) {
    if (this.busy || !this.state) return;
    this.busy = true;
    this.alert("");
    const before = this.state;
    const hadFocus = this.root.contains(document.activeElement);
    this.render();
    try {
      const state = await api.act(before.id, this.lang, action, before.version);
      await this.play(before, state);
    } catch (error) {
      if (error.status === 409 || error.status === 422) {
        this.alert(error.status === 409 ? this.t("error.stale") : error.body.message || error.message);
        try {
          this.show(await api.getGame(before.id, this.lang));
        } catch (again) {
          this.problem(again);
        }
      } else if (error.status === 404) {
        this.alert(this.t("error.gone"));
        this.busy = false;
        await this.newDeal();
      } else {
        this.problem(error);
      }
    } finally {
      this.busy = false;
      this.render();
      if (hadFocus && !this.root.contains(document.activeElement)) this.focusSomething();
    }
  }

  // The coach's advice for this moment: its lines, and the suggested control marked.
  async hint() {
    if (this.busy || !this.state) return;
    const asked = this.state.version;
    try {
      const advice = await api.hint(this.state.id, this.lang);
      if (!this.state || this.state.version !== asked) return;
      this.advice = advice;
      this.renderHint();
      if (advice.lines.length) this.announce(advice.lines[0]);
    } catch (error) {
      this.problem(error);
    }
  }

  renderHint() {
    const box = this.q("[data-hint]");
    for (const old of this.root.querySelectorAll(".suggested")) old.classList.remove("suggested");
    const advice = this.advice;
    if (!advice || !this.state || advice.version !== this.state.version || this.busy) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    box.hidden = false;
    box.replaceChildren(...advice.lines.map((line, index) =>
      element(index === 0 ? "p" : "p", { class: index === 0 ? "hint-main" : "hint-detail", text: line })));
    const action = advice.action;
    if (!action) return;
    let target = null;
    if (action.do === "discard") target = this.q(`[data-hand=you] [data-card="${action.card}"]`);
    else if (action.do === "declare") target = this.q(`[data-action=declare][data-wait="${action.wait}"]`);
    else target = this.q(`[data-action=${action.do}]`);
    if (target) target.classList.add("suggested");
  }

  focusSomething() {
    const next = this.root.querySelector(
      "[data-action=declare]:not(:disabled), [data-hand=you] [data-card]:not(:disabled), " +
      "[data-action=draw]:not(:disabled), .outcome:not([hidden]) [data-action=new-deal]");
    if (next) next.focus();
  }

  // Plays the events between two states back one by one, then shows the new state.
  async play(before, after) {
    const view = structuredClone(before);
    view.legal = [];
    view.outcome = null;
    for (const event of after.events) {
      this.step(view, event);
      this.state = view;
      this.render();
      this.log(event);
      if (event.text) this.announce(event.text);
      // An AI's draw shows briefly, its discard or declaration for the whole pace.
      if (event.seat !== 0 && event.seat !== null && this.pace > 0 && event.kind !== "win") {
        await sleep(event.kind === "draw" ? this.pace / 3 : this.pace);
      }
    }
    this.state = after;
    this.fresh = this.freshCard(after);
  }

  freshCard(state) {
    const last = state.events.length ? state.events[state.events.length - 1] : null;
    if (last && last.seat === 0 && (last.kind === "draw" || last.kind === "take")) return last.card;
    return null;
  }

  // Seat 0's view after one event, as far as seat 0 can tell (the server's state follows).
  step(view, event) {
    const seat = event.seat;
    view.version += 1;
    if (event.kind === "draw") {
      view.stock -= 1;
      view.hand_sizes[seat] += 1;
      view.latest_discard = null;
      view.turn = seat;
      view.phase = "discard";
      if (seat === 0 && event.card) this.addToHand(view, event.card);
      if (view.declared.some((wait) => wait) && event.card) view.public_draws.push([seat, event.card]);
    } else if (event.kind === "take") {
      const from = (seat + 2) % 3;
      view.discards[from].pop();
      view.hand_sizes[seat] += 1;
      view.latest_discard = null;
      view.turn = seat;
      view.phase = "discard";
      if (seat === 0) this.addToHand(view, event.card);
    } else if (event.kind === "discard") {
      view.discards[seat].push(event.card);
      view.hand_sizes[seat] -= 1;
      view.latest_discard = event.card;
      view.turn = (seat + 1) % 3;
      view.phase = "start";
      if (seat === 0) view.hand.splice(view.hand.indexOf(event.card), 1);
    } else if (event.kind === "declare") {
      view.declared[seat] = event.card;
    }
  }

  addToHand(view, code) {
    view.hand.push(code);
    view.hand.sort((a, b) => cardIndex(a) - cardIndex(b));
    this.fresh = code;
  }

  show(state) {
    const first = this.state === null || this.state.id !== state.id;
    if (first) {
      this.q("[data-log]").replaceChildren();
      this.logged = 0;
    }
    state.events.slice(Math.max(0, this.logged - state.events_from)).forEach((event) => this.log(event));
    this.state = state;
    this.fresh = this.freshCard(state);
    this.render();
  }

  // -- showing ----------------------------------------------------------------------------

  render() {
    const state = this.state;
    this.root.dataset.busy = String(this.busy || !state);
    if (!state) return;
    this.root.dataset.version = String(state.version);
    const legal = this.busy ? [] : state.legal;
    for (const seat of [1, 2]) this.renderSeat(seat, state);
    this.renderMiddle(state);
    this.renderYou(state, legal);
    this.renderOutcome(state);
    this.renderHint();
  }

  renderSeat(seat, state) {
    const box = this.q(`[data-seat="${seat}"]`);
    const turn = !state.outcome && state.turn === seat;
    box.classList.toggle("turn", turn);
    box.setAttribute("aria-label", state.players[seat]);
    const title = element("h2", { class: "seat-name" }, element("span", { text: state.players[seat] }));
    if (turn) title.append(element("span", { class: "turn-mark", text: this.t("turn") }));
    const size = state.hand_sizes[seat];
    const fan = element("span", { class: "fan", "aria-hidden": "true" });
    for (let i = 0; i < size; i += 1) fan.append(this.img(null, 34));
    const backs = element("div", { class: "backs" }, fan, element("span", { class: "count-text", text: this.count(size) }));
    const parts = [title, backs];
    const wait = state.declared[seat];
    if (wait) {
      parts.push(element("div", { class: "declared", "data-declared": wait },
        element("span", { text: this.t("declared") }), this.img(wait, 30),
        element("span", { text: this.name(wait) })));
    }
    parts.push(element("span", { class: "label", text: this.t("discards") }), this.pile(state.discards[seat], state, seat));
    box.replaceChildren(...parts);
  }

  pile(cards, state, seat) {
    const row = element("ol", { class: "pile-row" });
    // The latest discard lies on the pile of the seat before the one to move.
    const latest = state.latest_discard && seat === (state.turn + 2) % 3;
    cards.forEach((code, index) => {
      const item = element("li", { "data-card": code }, this.img(code, 34));
      if (latest && index === cards.length - 1 && code === state.latest_discard) item.classList.add("fresh");
      row.append(item);
    });
    return row;
  }

  renderMiddle(state) {
    const stock = this.q("[data-stock]");
    stock.textContent = String(state.stock);
    stock.dataset.stock = String(state.stock);
    stock.setAttribute("aria-label", this.count(state.stock));
    const latest = this.q(".latest-card");
    if (state.latest_discard) {
      latest.replaceChildren(this.img(state.latest_discard, 68),
        element("span", { class: "name", text: this.name(state.latest_discard) }));
    } else {
      latest.replaceChildren(element("span", { class: "name", text: "—" }));
    }
    const publicBox = this.q("[data-public]");
    publicBox.hidden = state.public_draws.length === 0;
    const list = publicBox.querySelector("ol");
    list.replaceChildren(...state.public_draws.slice(-8).map(([seat, code]) =>
      element("li", {}, this.img(code, 34), element("span", { text: seat === 0 ? this.t("you") : this.t("seat", { seat }) }))));
  }

  renderYou(state, legal) {
    const box = this.q('[data-seat="0"]');
    const mine = !state.outcome && state.turn === 0;
    box.classList.toggle("turn", mine || legal.length > 0);
    this.q(".you-discards").replaceChildren(element("span", { class: "label", text: this.t("discards") }),
      this.pile(state.discards[0], state, 0));
    const discards = new Set(legal.filter((a) => a.do === "discard").map((a) => a.card));
    const hand = this.q("[data-hand=you]");
    const focused = document.activeElement && hand.contains(document.activeElement)
      ? document.activeElement.dataset.card : null;
    const locked = Boolean(state.declared[0]);
    hand.classList.toggle("locked", locked);
    const groups = [];
    let last = null;
    let marked = false;
    state.hand.forEach((code, index) => {
      const group = cardGroup(code);
      if (group !== last) {
        groups.push(element("div", { class: "group" }));
        last = group;
      }
      const enabled = discards.has(code) && !locked;
      const button = element("button", {
        type: "button", class: "card", "data-card": code, disabled: !enabled,
        "aria-label": enabled ? this.t("discard.card", { card: this.name(code) }) : this.name(code),
        title: `${this.name(code)} (${index + 1})`,
      }, this.img(code, 68), element("span", { class: "pos", "aria-hidden": "true", text: String(index + 1) }));
      if (code === this.fresh && !marked) {
        button.classList.add("new"); // one copy, even when the hand holds two
        marked = true;
      }
      groups[groups.length - 1].append(button);
    });
    hand.replaceChildren(...groups);
    if (focused) {
      const again = hand.querySelector(`[data-card="${focused}"]:not(:disabled)`);
      if (again) again.focus();
    }

    const kinds = new Set(legal.map((a) => a.do));
    const take = this.q("[data-action=take]");
    this.q("[data-action=draw]").disabled = !kinds.has("draw");
    take.disabled = !kinds.has("take");
    take.querySelector(".take-text").textContent = state.latest_discard
      ? this.t("take", { card: this.name(state.latest_discard) }) : this.t("take.plain");
    this.q("[data-action=pass]").disabled = !kinds.has("pass");
    this.q("[data-action=hint]").disabled = legal.length === 0;
    const declares = legal.filter((a) => a.do === "declare");
    const declareBox = this.q(".declares");
    const focusedWait = document.activeElement && declareBox.contains(document.activeElement)
      ? document.activeElement.dataset.wait : null;
    declareBox.replaceChildren(...declares.map((a, index) => element("button", {
      type: "button", "data-action": "declare", "data-wait": a.wait,
      "aria-label": this.t("declare.wait", { card: this.name(a.wait) }),
    }, index === 0 ? element("kbd", { text: "C" }) : null,
    document.createTextNode(` ${declares.length > 1 ? this.t("declare.wait", { card: this.name(a.wait) }) : this.t("declare")}`))));
    if (focusedWait) {
      const again = declareBox.querySelector(`[data-wait="${focusedWait}"]`);
      if (again) again.focus();
    }
    this.q("[data-status]").textContent = this.status(state, kinds);
  }

  status(state, kinds) {
    if (state.outcome) return this.t("status.over");
    if (kinds.has("declare")) return this.t("status.declare");
    if (kinds.has("discard")) return this.t("status.discard");
    if (kinds.has("take")) return this.t("status.start");
    if (kinds.has("draw")) return this.t("status.draw");
    if (state.declared[0]) return this.t("hand.locked");
    const seat = state.to_move.length ? state.to_move[0] : state.turn;
    return this.t("status.wait", { seat });
  }

  renderOutcome(state) {
    const box = this.q(".outcome");
    if (!state.outcome) {
      box.hidden = true;
      box.removeAttribute("data-outcome");
      return;
    }
    box.hidden = false;
    box.dataset.outcome = state.outcome.result;
    const lines = [state.outcome_text];
    const won = state.winning_hand;
    if (won && won.seat !== 0) lines.push(this.s.lost);
    box.querySelector(".outcome-text").textContent = lines.join(" ");
    const winning = box.querySelector(".winning");
    if (won) {
      const title = won.seat === 0 ? this.t("winning.yours") : this.t("winning.hand", { seat: won.seat });
      const groups = won.groups.map((group) => element("div", { class: "group" }, ...group.map((code) => this.img(code, 56))));
      const card = element("div", { class: "won", "data-winning-card": won.card }, this.img(won.card, 56),
        element("span", { text: this.t("winning.card") }));
      winning.replaceChildren(element("span", { class: "sr-only", text: title }), ...groups, card);
      winning.setAttribute("aria-label", title);
    } else {
      winning.replaceChildren();
    }
    box.querySelector("[data-action=download-record]").href = api.recordUrl(state.id);
  }

  log(event) {
    this.logged += 1;
    if (!event.text) return;
    const list = this.q("[data-log]");
    const item = element("li", { text: event.text, "data-kind": event.kind });
    if (event.seat === 0) item.classList.add("mine");
    if (event.kind === "win" || event.kind === "drawn") item.classList.add("win");
    list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  announce(text) {
    const line = element("p", { text });
    this.live.append(line);
    while (this.live.children.length > 6) this.live.firstElementChild.remove();
  }

  alert(text) {
    this.q("[data-alert]").textContent = text;
  }

  problem(error) {
    this.alert(error.status === 0 ? this.t("error.network") : error.message);
  }
}
