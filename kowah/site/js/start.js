// The static site's first script (a classic one, run as soon as the parser meets it, long
// before the page's modules run): on a visit the service worker already serves, it starts
// the Web Worker (worker.js) at once, so that Python starts while the page loads. engine.js
// takes the Worker over (window.kowahEarlyWorker), with the messages that came before it.
// On a first visit it only registers the service worker: the Worker waits for it (offline.js).
"use strict";

(() => {
  const data = document.getElementById("kowah-data");
  if (!navigator.serviceWorker || !data) return;
  const { site, lang } = JSON.parse(data.textContent);
  const root = new URL(site.root, location.href);
  if (!navigator.serviceWorker.controller) {
    // A first visit: the service worker registered now takes the page sooner (offline.js
    // registers it too, and starts the Worker once it serves the page).
    navigator.serviceWorker.register(new URL("sw.js", root)).catch(() => {});
    return;
  }
  const worker = new Worker(new URL("static/js/worker.js", root), { type: "module" });
  const early = { worker, missed: [], error: null };
  worker.onmessage = ({ data: message }) => early.missed.push(message);
  worker.onerror = (event) => { early.error = event.message || "worker"; };
  performance.mark("kowah:worker-created");
  worker.postMessage({ type: "start", version: site.version, lang, pyodide: new URL(site.pyodide, root).href,
    wheels: site.wheels.map((wheel) => new URL(wheel, root).href), origin: location.origin,
    accept: (navigator.languages || []).join(",") });
  window.kowahEarlyWorker = early;
})();
