// The static site's entry module (kowah site): the page of kowah serve, its game answered by
// a Web Worker running the same Python (engine.js, worker.js). It starts the Worker first,
// points api.js's one transport at it, sets up what differs from a served page (the language
// pages, "Play with friends", the record's download, the service worker), then runs main.js.

import { setTransport } from "./api.js";
import { Engine } from "./engine.js";
import { keepOffline, keepTheRest } from "./offline.js";

performance.mark("kowah:page-started");

const LANG_KEY = "kowah-site-lang";
const data = JSON.parse(document.getElementById("kowah-data").textContent);
const site = data.site;
const root = new URL(site.root, location.href);
const pageOf = (lang) => new URL(lang === "en" ? "./" : `${lang}/`, root);

function storedLanguage() {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch {
    return null;
  }
}

// The language chosen before on this site, else the browser's first one the table speaks.
function wanted() {
  const stored = storedLanguage();
  if (stored && stored in data.languages) return stored;
  for (const tag of navigator.languages || []) {
    const lang = tag.toLowerCase().split("-")[0];
    if (lang in data.languages) return lang;
  }
  return "en";
}

const lang = wanted();
if (lang !== data.lang && !new URLSearchParams(location.search).has("lang")) {
  location.replace(pageOf(lang));
} else {
  // The Worker starts once the service worker serves the page (start.js started it already
  // on a later visit; on a first visit, it waits for the service worker).
  const engine = new Engine(keepOffline(root), new URL("static/js/worker.js", root), {
    version: site.version, lang: data.lang, pyodide: new URL(site.pyodide, root).href,
    wheels: site.wheels.map((wheel) => new URL(wheel, root).href),
    origin: location.origin, accept: (navigator.languages || []).join(","),
  }, window.kowahEarlyWorker ?? null);
  setTransport({ send: (url, options) => engine.send(url, options), live: false });
  const status = document.querySelector("[data-status]");
  if (status && !status.textContent) status.textContent = site.loading;
  engine.ready.catch((error) => {
    const alert = document.querySelector("[data-alert]");
    if (alert) alert.textContent = site.failed.replace("{problem}", error.message);
  });

  // The language switch opens that language's page (each is a file of its own).
  document.addEventListener("change", (event) => {
    if (event.target.name !== "lang" || !event.target.closest("[data-settings]")) return;
    event.stopImmediatePropagation();
    try {
      localStorage.setItem(LANG_KEY, event.target.value);
    } catch {
      // not kept: this page's link still opens it
    }
    location.assign(pageOf(event.target.value));
  }, true);

  // "Play with friends" opens the kowah serve table given at build time, or is not there.
  const friends = document.querySelector("[data-action=friends]");
  if (friends) {
    friends.hidden = true;
    if (site.friends_url) {
      const link = Object.assign(document.createElement("a"), { href: site.friends_url, className: friends.className + " button", textContent: friends.textContent });
      link.dataset.friendsLink = "";
      friends.after(link);
    }
  }

  // The record's download: the Worker's answer (the server's file, byte for byte) as a file.
  document.addEventListener("click", async (event) => {
    const link = event.target.closest?.("[data-action=download-record]");
    if (!link) return;
    event.preventDefault();
    const response = await engine.send(new URL(link.getAttribute("href"), location.origin), { method: "GET" });
    if (!response.ok) return;
    const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") || "");
    const file = URL.createObjectURL(new Blob([await response.text()], { type: "application/json" }));
    const save = Object.assign(document.createElement("a"), { href: file, download: name ? name[1] : "kowah.json" });
    document.body.append(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(file), 10000);
  }, true);

  engine.ready.then(() => {
    document.documentElement.dataset.engine = "ready"; // (hooks for the tests)
    document.documentElement.dataset.engineStart = engine.start;
    keepTheRest();
  }, () => {});
  await import("./main.js");
}
