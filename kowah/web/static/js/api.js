// The JSON API of the table (see the docs' "JSON API" page).
//
// Each game's seat key is kept in localStorage ("kowah-token:" + id) and sent as
// "Authorization: Bearer KEY"; a game brought over from the first edition's files has its id as
// its key. A new deal closes the game this page played before.

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

const TOKEN_PREFIX = "kowah-token:";
const tokens = new Map(); // when localStorage is not available
let current = null; // the id of the game this page shows

function tokenOf(id) {
  try {
    return localStorage.getItem(TOKEN_PREFIX + id) || tokens.get(id) || id;
  } catch {
    return tokens.get(id) || id;
  }
}

function keep(id, token) {
  tokens.set(id, token);
  try {
    localStorage.setItem(TOKEN_PREFIX + id, token);
  } catch {
    // kept for this page only
  }
}

async function call(method, path, lang, body, id) {
  const url = new URL(path, location.origin);
  url.searchParams.set("lang", lang);
  const options = { method, headers: { accept: "application/json" } };
  if (id) options.headers.authorization = `Bearer ${tokenOf(id)}`;
  if (method === "POST") {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body === undefined ? {} : body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
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

const path = (id, rest = "") => `/api/games/${encodeURIComponent(id)}${rest}`;

export async function newGame(lang, options = {}) {
  if (current) {
    const old = current;
    current = null;
    await call("POST", path(old, "/close"), lang, {}, old).catch(() => null);
  }
  const state = await call("POST", "/api/games", lang, { lang, ...options });
  keep(state.id, state.token);
  current = state.id;
  return state;
}

export async function getGame(id, lang) {
  const state = await call("GET", path(id), lang, undefined, id);
  if (state.seat === null) throw new ApiError(404, null); // no key for it here: a new deal
  current = id;
  return state;
}

export function act(id, lang, action, after) {
  return call("POST", path(id, "/actions"), lang, { ...action, after }, id);
}

export function hint(id, lang) {
  return call("GET", path(id, "/hint"), lang, undefined, id);
}

export function recordUrl(id) {
  return path(id, "/record");
}
