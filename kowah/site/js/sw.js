// The static site's service worker (kowah site writes VERSION, FILES and LAZY above this line):
// the whole build in one cache named after its version, so the site loads and plays offline
// after the first visit. On a first visit it takes the page at once: the runtime and the
// wheels (LAZY), which the page's Worker then fetches through it, are kept as they pass (so
// that nothing is fetched twice), and the rest once the game runs (offline.js asks). A new
// build's worker fills its own cache completely before it takes over (offline.js asks it to),
// then deletes the old one, and the old build's memory snapshot (snapshot.js): a page never
// gets two builds' files.

const CACHE = `kowah-site-${VERSION}`;
const lazy = new Set(LAZY.map((file) => new URL(file, location.href).href));

// "no-cache": each file is checked with the server (a 304 costs a few bytes), never stale.
const keep = (files) => caches.open(CACHE).then((cache) =>
  cache.addAll(files.map((file) => new Request(file, { cache: "no-cache" }))));

self.addEventListener("install", (event) => {
  if (!self.registration.active) {
    event.waitUntil(self.skipWaiting()); // a first visit: nothing to mix with, take the page now
  } else {
    event.waitUntil(keep([...FILES, ...LAZY])); // a new build: all of it before it takes over
  }
});

self.addEventListener("message", (event) => {
  if (event.data === "activate") self.skipWaiting();
  if (event.data === "keep") event.waitUntil(keep(FILES)); // the first visit's game runs
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    const old = (name) => (name.startsWith("kowah-site-") && name !== CACHE)
      || (name.startsWith("kowah-snapshot-") && name !== `kowah-snapshot-${VERSION}`);
    await Promise.all(names.filter(old).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

let opened = null; // the cache, opened once

// (the cache is keyed by address without the query, looked up exactly: a lookup that ignores
// the query reads every entry, and a page's start asks for some sixty files at once)
// (a lazy file is answered as it arrives, and kept meanwhile: the runtime's WebAssembly then
// compiles while it downloads)
async function answer(event, url) {
  opened ??= caches.open(CACHE);
  const cache = await opened;
  if (url.pathname.endsWith("/index.html")) url.pathname = url.pathname.slice(0, -"index.html".length);
  url.search = "";
  const found = await cache.match(url.href);
  if (found) return found;
  if (!lazy.has(url.href)) return fetch(event.request);
  const response = await fetch(url.href, { cache: "no-cache" });
  if (response.ok) event.waitUntil(cache.put(url.href, response.clone()));
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  event.respondWith(answer(event, url));
});
