// The static site's Web Worker: Pyodide, the kowah and Babel wheels, and kowah.site.solo's
// Tables, which answer the page's API requests as kowah serve would (the same Python). Each
// change is kept in IndexedDB (keep.js) before its answer goes back; a change the browser
// refuses to keep is undone and answered as the server answers when it cannot save.

import { Keep } from "./keep.js";

// When each step of the start ended (ms since the epoch), sent with "ready": the page marks
// them on its own timeline (engine.js), where benchmarks/site.py reads them.
const marks = {};
const mark = (name) => { marks[name] = performance.timeOrigin + performance.now(); };
mark("worker-started");

// When each runtime file and wheel had arrived (the browser's resource timing).
function arrivals() {
  for (const entry of performance.getEntriesByType?.("resource") ?? []) {
    const name = entry.name.split("/").pop();
    if (/\.(wasm|zip|mjs|whl)$/.test(name)) marks[`fetched ${name}`] = performance.timeOrigin + entry.responseEnd;
  }
}

let tables = null;
let keep = null;
let queue = null; // the requests run one after another, as the server runs a game's changes

async function start({ pyodide, wheels, origin, accept }) {
  const fetched = wheels.map(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  const kept = Keep.open();
  const { loadPyodide } = await import(`${pyodide}pyodide.mjs`);
  mark("pyodide-imported");
  // (fsInit runs once the WebAssembly module is compiled and instantiated, before Python starts)
  const py = await loadPyodide({ indexURL: pyodide, fsInit: async () => mark("wasm-instantiated") });
  mark("python-started");
  for (const buffer of await Promise.all(fetched)) py.unpackArchive(buffer, "wheel");
  mark("wheels-unpacked");
  tables = py.pyimport("kowah.site.solo").Tables(origin, accept);
  mark("kowah-imported");
  keep = await kept;
  if (keep) for (const text of await keep.all()) tables.load(text);
  mark("games-loaded");
  arrivals();
}

async function answer({ method, path, query, auth, body }) {
  // (undefined: None in Python; null would be JsNull)
  const reply = tables.handle(method, path, query, auth ?? undefined, body ?? "");
  const result = { status: reply.status, headers: reply.headers.toJs({ dict_converter: Object.fromEntries }),
    body: reply.body };
  const saved = reply.saved ? reply.saved.toJs() : null;
  reply.destroy();
  if (saved) {
    try {
      if (!keep) throw new Error("no storage");
      await keep.put(saved[0], saved[1], result.status === 201);
    } catch {
      const lang = new URLSearchParams(query).get("lang") ?? undefined;
      const refused = tables.not_saved(saved[0], lang);
      Object.assign(result, { status: refused.status, body: refused.body });
      refused.destroy();
    }
  }
  return result;
}

self.onmessage = ({ data }) => {
  if (data.type === "start") {
    queue = start(data).then(() => self.postMessage({ type: "ready", marks }),
      (error) => self.postMessage({ type: "failed", message: String(error && error.message || error) }));
    return;
  }
  queue = queue.then(() => answer(data)).then(
    (result) => self.postMessage({ id: data.id, ...result }),
    (error) => self.postMessage({ id: data.id, status: 500, headers: {}, body: JSON.stringify(
      { error: "server-error", message: String(error && error.message || error) }) }));
};
