// Pyodide's memory snapshot of the Worker's Python, taken on a first visit once the wheels are
// unpacked and the engine imported (before any game is made), and kept in Cache Storage under
// the build's version: a later visit restores that memory instead of starting Python and
// importing the engine again. A snapshot is only ever used by the build that made it (its
// cache's name and its header say the version; Pyodide checks its own build besides); one that
// is missing, another build's, cut short or refused is forgotten, and Python starts as usual.
// Used by the Worker (worker.js); the service worker deletes other builds' (sw.js).

const PREFIX = "kowah-snapshot-";
const VERSION_HEADER = "x-kowah-version";
const LENGTH_HEADER = "x-kowah-length";
const key = () => new URL("kowah-snapshot", self.location.href).href;
const usable = () => typeof caches !== "undefined"; // (no Cache Storage on plain http elsewhere)

// Whether this browser can keep a snapshot (else none is made).
export const canKeepSnapshots = usable;

// The snapshot kept by this *version* of the site, or null: found at once, its bytes read
// while the runtime loads ({ bytes }: a promise that fails when they are cut short).
export async function findSnapshot(version) {
  if (!usable()) return null;
  let response;
  try {
    response = await caches.match(key(), { cacheName: PREFIX + version });
  } catch {
    return null; // unreadable: as if missing
  }
  // None kept: nothing to forget (deleting the name here could take away the snapshot that
  // another Worker of this site, an earlier page's, keeps meanwhile).
  if (!response) return null;
  if (response.headers.get(VERSION_HEADER) === version) {
    const length = response.headers.get(LENGTH_HEADER);
    let read = null; // (read when Pyodide asks, once the runtime's own files are on their way)
    const bytes = { then: (resolve, reject) => {
      read ??= response.arrayBuffer().then((buffer) => {
        if (String(buffer.byteLength) !== length) throw new Error("the snapshot is cut short");
        return new Uint8Array(buffer);
      });
      return read.then(resolve, reject);
    } };
    return { bytes };
  }
  await forgetSnapshot(version); // another build's under this build's name: forgotten
  return null;
}

// Keep *bytes* as this *version*'s snapshot, and let every other build's go.
export async function keepSnapshot(version, bytes) {
  if (!usable()) return;
  try {
    const cache = await caches.open(PREFIX + version);
    await cache.put(key(), new Response(bytes, { headers: { "content-type": "application/octet-stream",
      [VERSION_HEADER]: version, [LENGTH_HEADER]: String(bytes.length) } }));
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== PREFIX + version)
      .map((name) => caches.delete(name)));
  } catch {
    // not kept (storage full or refused): the next visit starts Python as this one did
  }
}

export async function forgetSnapshot(version) {
  if (!usable()) return;
  try {
    await caches.delete(PREFIX + version);
  } catch {
    // nothing to forget
  }
}
