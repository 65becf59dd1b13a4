// The page's entry point: read the strings the server embedded, then set up the settings, the
// tabs, the table and everything around it.

import { Api } from "./api.js";
import { Commands } from "./commands.js";
import { Evening } from "./evening.js";
import { Friends } from "./friends.js";
import { setUpKeys, keysText } from "./keyboard.js";
import { Announcer, Log } from "./log.js";
import { Play } from "./play.js";
import { Review } from "./review.js";
import { Session } from "./session.js";
import { setUp as setUpSettings } from "./settings.js";
import { Sounds } from "./sounds.js";
import { Table } from "./table.js";
import { Words } from "./words.js";

const data = JSON.parse(document.getElementById("kowah-data").textContent);
const words = new Words(data);
const api = new Api(data.lang);
const root = document.querySelector(".table-panel");
const sounds = new Sounds();
const table = new Table(root, words, api, new Log(root.querySelector("[data-log]")),
  new Announcer(document.querySelector("[data-live]")), sounds);
const review = new Review(table);

function setUpTabs() {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  const select = (tab) => {
    if (review.open) review.close();
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute("aria-controls")).hidden = !selected;
    }
  };
  tabs.forEach((tab, index) => {
    tab.addEventListener("click", () => select(tab));
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (step) {
        const next = tabs[(index + step + tabs.length) % tabs.length];
        select(next);
        next.focus();
        event.preventDefault();
      }
    });
  });
}

const settings = setUpSettings(document.querySelector("[data-settings]"), words, {
  cookie: data.cookie,
  onPace: (pace) => { table.pace = Math.max(0, Math.min(5, Number(pace) || 0)); },
  onCodes: (on) => {
    words.codes = on;
    api.codes = on;
    if (table.state) table.open(table.state.id).catch((error) => table.problem(error));
  },
  onSounds: (on) => sounds.enable(on),
});
const session = new Session(table, settings);
const play = new Play(table, session);
play.bind(root);
root.querySelector("[data-action=review]").addEventListener("click", () => review.fromGame());
const commands = new Commands(document.querySelector("[data-command-form]"), table, play, session);
new Friends(table, session, settings);
new Evening(table, session);
setUpTabs();
setUpKeys(root, words, play, { command: commands.input });
for (const kbd of document.querySelectorAll("kbd[data-key]")) kbd.textContent = words.key(kbd.dataset.key);
document.querySelector("[data-keys]").textContent = keysText(words);
window.addEventListener("popstate", () => location.reload());
session.begin();
