// The static site's service worker (sw.js, written by kowah site). keepOffline() registers it
// and resolves once it serves the page (at once on a later visit), so that the Worker's first
// fetches of the runtime pass through it and are kept: nothing is fetched twice. A new build's
// worker caches the whole new build first; then it takes over and the page reloads once, so
// that a page is always one build's files, never a mix.

const PATIENCE_MS = 4000; // without a service worker by then, the site plays online

export function keepOffline(root) {
  if (!("serviceWorker" in navigator)) return Promise.resolve();
  const hadController = Boolean(navigator.serviceWorker.controller);
  let reloading = false;
  const controlled = new Promise((resolve) => {
    if (hadController) resolve();
    setTimeout(resolve, PATIENCE_MS);
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      resolve();
      if (!hadController || reloading) return;
      reloading = true;
      location.reload();
    });
  });
  const activate = (worker) => {
    if (worker && navigator.serviceWorker.controller) worker.postMessage("activate");
  };
  navigator.serviceWorker.register(new URL("sw.js", root)).then((registration) => {
    activate(registration.waiting);
    registration.addEventListener("updatefound", () => {
      const worker = registration.installing;
      worker?.addEventListener("statechange", () => {
        if (worker.state === "installed") activate(worker);
      });
    });
  }).catch(() => {}); // no service worker (plain http on another host, file://): online only
  return controlled.then(() => {});
}

// The game runs: the service worker can now keep the rest of the site (a first visit's).
export function keepTheRest() {
  navigator.serviceWorker?.controller?.postMessage("keep");
}
