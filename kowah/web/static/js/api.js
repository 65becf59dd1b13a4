// The JSON API of the table (see the docs' "JSON API" page).

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

async function call(method, path, lang, body) {
  const url = new URL(path, location.origin);
  url.searchParams.set("lang", lang);
  const options = { method, headers: { accept: "application/json" } };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
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

export function newGame(lang, options = {}) {
  return call("POST", "/api/games", lang, { lang, ...options });
}

export function getGame(id, lang) {
  return call("GET", `/api/games/${encodeURIComponent(id)}`, lang);
}

export function act(id, lang, action, after) {
  return call("POST", `/api/games/${encodeURIComponent(id)}/actions`, lang, { ...action, after });
}

export function hint(id, lang) {
  return call("GET", `/api/games/${encodeURIComponent(id)}/hint`, lang);
}

export function recordUrl(id) {
  return `/api/games/${encodeURIComponent(id)}/record`;
}
