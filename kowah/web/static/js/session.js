// Which game the page shows: the solo game of this browser at "/", or a table at /games/{id}
// (a seat with its key, kept in localStorage; without a key, as a spectator). An invite link
// carries the key in its fragment (#key=…), which the page stores and removes from the address.

import { STORAGE } from "./constants.js";
import { ask } from "./confirm.js";
import { readStorage, writeStorage } from "./dom.js";

const TABLE_PATH = /^\/games\/([A-Za-z0-9_-]{1,64})\/?$/;

export class Session {
  constructor(table, settings) {
    this.table = table;
    this.api = table.api;
    this.words = table.words;
    this.settings = settings;
  }

  async begin() {
    const match = TABLE_PATH.exec(location.pathname);
    if (match) {
      const id = match[1];
      const key = new URLSearchParams(location.hash.slice(1)).get("key");
      if (key) {
        // Another seat's invite in a browser that holds a key of this table already (the
        // creator checking a link): that seat in this tab, the browser's own key kept.
        const own = readStorage(STORAGE.token(id));
        this.api.setToken(id, key, { tab: Boolean(own && own !== key) });
        history.replaceState(null, "", location.pathname + location.search);
      }
      await this.openTable(id, Boolean(key));
      return;
    }
    const id = readStorage(STORAGE.game);
    if (id) {
      try {
        await this.table.open(id);
        return;
      } catch (error) {
        if (![401, 404].includes(error.status)) {
          this.table.problem(error);
          return;
        }
      }
    }
    await this.newDeal(false);
  }

  async openTable(id, invited) {
    const table = this.table;
    try {
      let first = null;
      if (this.api.token(id)) {
        try {
          first = await this.api.join(id);
        } catch (error) {
          if (error.status === 401) this.api.setToken(id, null); // not a key of this table: watch
          else if (!invited || error.status === 404) throw error;
        }
      }
      await table.open(id, first);
    } catch (error) {
      table.problem(error);
    }
  }

  inProgress() {
    const state = this.table.state;
    return Boolean(state && !state.outcome && state.status !== "closed" && this.table.played);
  }

  // A new solo deal ("New deal"): asks first while a deal is in progress, and closes the old game.
  async newDeal(confirmFirst = true) {
    const table = this.table;
    table.skip();
    if (this.evening?.takesOver()) return this.evening.instead(); // a friends' table: its own ways
    if (confirmFirst && this.inProgress()
        && !await ask(this.words.t("new-deal.confirm"), this.words.t("new-deal"))) return;
    const old = table.state;
    table.alert("");
    table.busy = true;
    table.render();
    try {
      if (old && old.seat === 0 && !old.outcome && old.status !== "closed" && this.api.token(old.id)) {
        await this.api.close(old.id).catch(() => null);
      }
      const created = await this.api.newGame({ opponents: this.settings.opponents() });
      this.remember(created);
      writeStorage(STORAGE.game, created.id);
      if (TABLE_PATH.test(location.pathname)) history.replaceState(null, "", "/" + location.search);
      table.busy = false;
      await table.open(created.id, created);
    } catch (error) {
      table.problem(error);
    } finally {
      table.busy = false;
      table.render();
    }
  }

  remember(created) {
    if (created.token) this.api.setToken(created.id, created.token);
  }

  // A friends' table: made with *options* (humans, names, opponents, turn_seconds, start).
  async friends(options) {
    const table = this.table;
    table.busy = true;
    table.render();
    try {
      const created = await this.api.newGame(options);
      this.remember(created);
      history.pushState(null, "", `/games/${encodeURIComponent(created.id)}${location.search}`);
      table.busy = false;
      await table.open(created.id, created);
      return created;
    } finally {
      table.busy = false;
      table.render();
    }
  }
}
