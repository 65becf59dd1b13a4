// The static site's Web Worker: Pyodide, the kowah and Babel wheels, and kowah.site.solo's
// Tables, which answer the page's API requests as kowah serve would (the same Python). Each
// change is kept in IndexedDB (keep.js) before its answer goes back; a change the browser
// refuses to keep is undone and answered as the server answers when it cannot save. Python is
// restored from this build's memory snapshot when the browser keeps one (snapshot.js), else
// started afresh, and the snapshot then made is kept for the next visit.

// The Worker's own modules (keep.js, snapshot.js, wheels.js) load beside Pyodide's, which
// start() asks for at once: imported statically, they would hold Pyodide's first fetch back
// until they had all arrived.
const helpers = Promise.all([import("./keep.js"), import("./snapshot.js"), import("./wheels.js")]);
let Keep = null;
let snapshots = null;
let unzip = null;

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

let sitePackages = null; // where the wheels go (Pyodide says it)
let tables = null;
let keep = null;
let queue = null; // the requests run one after another, as the server runs a game's changes
let unkept = null; // the snapshot this start made ({ version, bytes }), until it is kept

// Keep the snapshot made (if any) in Cache Storage: after the first answer, not before it
// (storing some 31 MB would hold that answer up).
function keepMade() {
  if (unkept) snapshots.keepSnapshot(unkept.version, unkept.bytes);
  unkept = null;
}

// Python with the wheels unpacked and kowah.site.solo imported: restored from this build's
// snapshot when there is a usable one (snapshot.js), else started afresh, ready to make one.
async function python(loadPyodide, options, { version, lang }, snapshot, files) {
  // (the files go in once Python runs: Python takes files found at its start for packages
  // installed its own way, and a snapshot refuses that)
  const engine = async (py) => {
    for (const wheel of await files) unzip.writeFiles(py.FS, sitePackages, wheel);
    py.pyimport("importlib").invalidate_caches();
    mark("wheels-unpacked");
    const solo = py.pyimport("kowah.site.solo");
    mark("kowah-imported");
    return solo;
  };
  if (snapshot) {
    try {
      const py = await loadPyodide({ ...options, _loadSnapshot: snapshot.bytes });
      mark("python-started");
      return { solo: await engine(py), start: "snapshot" };
    } catch {
      await snapshots.forgetSnapshot(version); // refused or broken: forgotten, and Python starts afresh
    }
  }
  const making = snapshots.canKeepSnapshots();
  const py = await loadPyodide(making ? { ...options, _makeSnapshot: true } : options);
  mark("python-started");
  const solo = await engine(py);
  let made = null;
  try {
    if (making) {
      solo.warm(lang); // (what the page asks first, answered once and forgotten: kowah.site.solo)
      made = py.makeMemorySnapshot(); // before any game of the page's: a fresh engine's memory
    }
  } catch {
    // refused: later visits start afresh too
  }
  return { solo, start: "fresh", made };
}

async function start({ pyodide, wheels, origin, accept, version, lang }) {
  const fetched = wheels.map(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  // Pyodide's Emscripten module is imported beside Pyodide itself, not after it (loadPyodide's
  // createPyodideModule option): the WebAssembly's compilation waits for it.
  const emscripten = import(`${pyodide}pyodide.asm.mjs`);
  emscripten.catch(() => {}); // (its failure is loadPyodide's)
  const imported = import(`${pyodide}pyodide.mjs`);
  [{ Keep }, snapshots, unzip] = await helpers;
  const kept = Keep.open();
  const found = snapshots.findSnapshot(version);
  const { loadPyodide } = await imported;
  mark("pyodide-imported");
  // The wheels' files, inflated while the runtime loads (wheels.js; a snapshot holds no files):
  // not before, so that nothing delays the runtime's own fetches, which loadPyodide starts.
  const files = Promise.all(wheels.map(async (url, index) => unzip.wheelFiles(await fetched[index],
    url.split("/").pop())));
  files.catch(() => {}); // (its failure is the start's, below)
  // (fsInit runs once the WebAssembly module is compiled and instantiated, before Python starts)
  const options = { indexURL: pyodide,
    createPyodideModule: async (settings) => (await emscripten).default(settings),
    fsInit: async (FS, info) => {
      sitePackages = info.sitePackages;
      mark("wasm-instantiated");
    } };
  const { solo, start: how, made } = await python(loadPyodide, options, { version, lang }, await found, files);
  tables = solo.Tables(origin, accept);
  solo.destroy();
  keep = await kept;
  if (keep) for (const text of await keep.all()) tables.load(text);
  mark("games-loaded");
  arrivals();
  return { how, made };
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
    queue = start(data).then(({ how, made }) => {
      self.postMessage({ type: "ready", marks, start: how });
      if (made) unkept = { version: data.version, bytes: made };
      setTimeout(keepMade, 5000); // (should the page ask nothing)
    }, (error) => self.postMessage({ type: "failed", message: String(error && error.message || error) }));
    return;
  }
  queue = queue.then(() => answer(data)).then(
    (result) => self.postMessage({ id: data.id, ...result }),
    (error) => self.postMessage({ id: data.id, status: 500, headers: {}, body: JSON.stringify(
      { error: "server-error", message: String(error && error.message || error) }) }))
    .then(keepMade);
};
