// Your actions at the table: the buttons, the stock and the latest discard, the hint, starting
// a friends' table at once and leaving it. Each action goes to the server with the version it
// was chosen on; the answer (with the others' replies) is played back by the table.

import { ask } from "./confirm.js";
import { element } from "./dom.js";

export class Play {
  constructor(table, session) {
    this.table = table;
    this.session = session;
    this.words = table.words;
    table.onChange((kind) => {
      if (kind === "render") this.renderHint();
    });
  }

  bind(root) {
    root.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-action], button[data-card], a[data-action]");
      if (!button || button.disabled || button.getAttribute("aria-disabled") === "true" || !root.contains(button)) return;
      const action = button.dataset.action;
      const simple = { draw: { do: "draw" }, stock: { do: "draw" }, take: { do: "take" }, latest: { do: "take" }, pass: { do: "pass" } };
      if (simple[action]) this.act(simple[action]);
      else if (action === "declare") this.act({ do: "declare", wait: button.dataset.wait });
      else if (action === "hint") this.hint();
      else if (action === "skip") this.table.skip();
      else if (action === "new-deal") this.session.newDeal();
      else if (action === "start-now") this.startNow();
      else if (action === "leave") this.leave();
      else if (!action && button.dataset.card && button.closest("[data-hand=you]")) {
        this.act({ do: "discard", card: button.dataset.card });
      }
    });
  }

  legal(action, legal = this.table.legal()) {
    return legal.some((entry) => entry.do === action.do
      && (action.card === undefined || entry.card === action.card)
      && (action.wait === undefined || entry.wait === action.wait));
  }

  async act(action) {
    const table = this.table;
    if (table.playing) table.skip();
    if (!table.state || table.busy) return false;
    const hadFocus = table.root.contains(document.activeElement);
    // Busy at once, while the news before the action (a playback being skipped, a state being
    // fetched) is still being shown; then the action is checked against the state shown.
    table.busy = true;
    table.alert("");
    table.render();
    try {
      await table.queue;
      const before = table.state;
      if (!before || !this.legal(action, before.legal || [])) return false;
      const next = await table.api.act(before.id, action, before.version);
      table.busy = false;
      await table.absorb(next);
    } catch (error) {
      table.busy = false;
      if (error.status === 409 && error.code === "stale") table.alert(this.words.t("error.stale"));
      else table.problem(error);
      await this.refresh();
    } finally {
      table.busy = false;
      table.render();
      if (hadFocus && !table.root.contains(document.activeElement)) this.focusSomething();
      if (table.missed) {
        table.missed = false;
        table.changed(null);
      }
    }
    return true;
  }

  async refresh() {
    const table = this.table;
    try {
      if (table.state) await table.absorb(await table.api.state(table.state.id, table.state.version));
    } catch (error) {
      if (error.status === 404) {
        table.alert(this.words.t("error.gone"));
        await this.session.newDeal(false);
      }
    }
  }

  focusSomething() {
    const next = this.table.root.querySelector(
      "[data-action=declare]:not(:disabled), [data-hand=you] [data-card]:not([aria-disabled=true]), " +
      "[data-action=draw]:not(:disabled), .outcome:not([hidden]) [data-action=new-deal], [data-action=skip]");
    if (next && next.offsetParent !== null) next.focus();
  }

  // The coach's advice for this moment: its lines, and the suggested control marked.
  async hint() {
    const table = this.table;
    if (!table.state || !table.legal().length) return;
    const asked = table.state.version;
    try {
      const advice = await table.api.hint(table.state.id);
      if (!table.state || table.state.version !== asked) return;
      table.advice = advice;
      this.renderHint();
      if (advice.lines.length) table.announcer.say(advice.lines.join(" "));
    } catch (error) {
      table.problem(error);
    }
  }

  renderHint() {
    const table = this.table;
    const box = table.root.querySelector("[data-hint]");
    for (const old of table.root.querySelectorAll(".suggested")) {
      old.classList.remove("suggested");
      const tag = old.querySelector(".tag.hint");
      if (tag) tag.remove();
    }
    const advice = table.advice;
    if (!advice || !table.state || advice.version !== table.state.version || table.busy || table.playing) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    box.hidden = false;
    box.replaceChildren(...advice.lines.map((line, index) =>
      element("p", { class: index === 0 ? "hint-main" : "hint-detail", text: line })));
    const action = advice.action;
    if (!action) return;
    let target = null;
    if (action.do === "discard") target = table.root.querySelector(`[data-hand=you] [data-card="${action.card}"]:not([aria-disabled=true])`);
    else if (action.do === "declare") target = table.root.querySelector(`[data-action=declare][data-wait="${action.wait}"]`);
    else target = table.root.querySelector(`.actions [data-action=${action.do}]`);
    if (!target) return;
    target.classList.add("suggested");
    if (target.dataset.card) target.append(element("span", { class: "tag hint", text: this.words.t("suggested"), "aria-hidden": "true" }));
  }

  async startNow() {
    const table = this.table;
    try {
      await table.absorb(await table.api.start(table.state.id));
    } catch (error) {
      table.problem(error);
    }
  }

  async leave() {
    const table = this.table;
    if (!await ask(this.words.t("leave-table.confirm"), this.words.t("leave-table"))) return;
    try {
      await table.absorb(await table.api.leave(table.state.id));
    } catch (error) {
      table.problem(error);
    }
  }
}
