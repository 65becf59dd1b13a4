// The static site's service worker (kowah site writes VERSION and FILES above this line): the
// whole build in one cache named after its version, so the site loads and plays offline after
// the first visit. A new build's worker fills its own cache completely before it takes over
// (offline.js asks it to), then deletes the old one: a page never gets two builds' files.

const CACHE = `kowah-site-${VERSION}`;

self.addEventListener("install", (event) => {
  // "no-cache": each file is checked with the server (a 304 costs a few bytes), never stale.
  event.waitUntil(caches.open(CACHE).then((cache) =>
    cache.addAll(FILES.map((file) => new Request(file, { cache: "no-cache" })))));
});

self.addEventListener("message", (event) => {
  if (event.data === "activate") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith("kowah-site-") && name !== CACHE)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    if (url.pathname.endsWith("/index.html")) url.pathname = url.pathname.slice(0, -"index.html".length);
    const found = await cache.match(url.href, { ignoreSearch: true });
    return found || fetch(request);
  })());
});
