// The table's JSON API (docs: "The JSON API of the browser table"): every call, with the seat's
// key as "Authorization: Bearer" and the page's language and card-code setting.

import { STORAGE } from "./constants.js";
import { readStorage, writeStorage } from "./dom.js";

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
    this.code = this.body.error || null;
  }
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

// The one seam between the page and the game: fetch() to the server, or (the static site,
// kowah site) the same requests answered by its Web Worker; live: whether a socket tells of changes.
let transport = { send: (url, options) => fetch(url, options), live: true };
export function setTransport(other) {
  transport = other;
}

export class Api {
  constructor(lang) {
    this.lang = lang;
    this.codes = false;
  }

  // The key this tab plays *id* with: an invite opened in this tab (kept for the tab only, so
  // that it never replaces this browser's own key of that game), else the browser's key.
  token(id) {
    return id ? readStorage(STORAGE.token(id), null, sessionStorage) ?? readStorage(STORAGE.token(id)) : null;
  }

  setToken(id, token, { tab = false } = {}) {
    if (tab || token === null) writeStorage(STORAGE.token(id), token, sessionStorage);
    if (!tab) writeStorage(STORAGE.token(id), token);
  }

  async call(method, path, { body, id, params = {} } = {}) {
    const url = new URL(path, location.origin);
    url.searchParams.set("lang", this.lang);
    if (this.codes) url.searchParams.set("codes", "1");
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, String(value));
    const headers = { accept: "application/json" };
    const token = this.token(id);
    if (token) headers.authorization = `Bearer ${token}`;
    const options = { method, headers };
    if (method === "POST") {
      headers["content-type"] = "application/json";
      options.body = JSON.stringify(body ?? {});
    }
    let response;
    try {
      response = await transport.send(url, options);
    } catch {
      throw new ApiError(0, null);
    }
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  newGame(options = {}) {
    return this.call("POST", "/api/games", { body: { lang: this.lang, ...options } });
  }

  state(id, since = 0) {
    return this.call("GET", game(id), { id, params: since ? { since } : {} });
  }

  act(id, action, after) {
    return this.call("POST", `${game(id)}/actions`, { id, body: { ...action, after } });
  }

  hint(id) {
    return this.call("GET", `${game(id)}/hint`, { id });
  }

  join(id, name) {
    return this.call("POST", `${game(id)}/join`, { id, body: name ? { name } : {} });
  }

  start(id) {
    return this.call("POST", `${game(id)}/start`, { id });
  }

  leave(id) {
    return this.call("POST", `${game(id)}/leave`, { id });
  }

  close(id) {
    return this.call("POST", `${game(id)}/close`, { id });
  }

  next(id, now = false) {
    return this.call("POST", `${game(id)}/next`, { id, body: now ? { now } : {} });
  }

  handOver(id, seat) {
    return this.call("POST", `${game(id)}/hand-over`, { id, body: { seat } });
  }

  say(id, phrase) {
    return this.call("POST", `${game(id)}/say`, { id, body: { phrase } });
  }

  record(id) {
    return this.call("GET", `${game(id)}/record`, { id });
  }

  review(record, seat) {
    return this.call("POST", "/api/review", { body: { record, seat } });
  }

  recordUrl(id) {
    return `${game(id)}/record`;
  }

  liveUrl(id) {
    if (!transport.live) return null;
    const url = new URL(`${game(id)}/live`, location.origin);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    return url.toString();
  }
}
