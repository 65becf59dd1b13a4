// The static site's service worker (sw.js, written by kowah site): registered once the game
// runs, so that it never competes with the first start. A new build's worker caches the whole
// new build first; then it takes over and the page reloads once, so that a page is always one
// build's files, never a mix.

export function keepOffline(root) {
  if (!("serviceWorker" in navigator)) return;
  const hadController = Boolean(navigator.serviceWorker.controller);
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!hadController || reloading) return;
    reloading = true;
    location.reload();
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
  }).catch(() => {}); // no service worker (a private window, file://): the site still plays online
}
