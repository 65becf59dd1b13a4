// The page's entry point: read the strings the server embedded, set up the settings, the tabs
// and the table.

import { setUp as setUpSettings } from "./settings.js";
import { Table } from "./table.js";

const data = JSON.parse(document.getElementById("kowah-data").textContent);

function setUpTabs() {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  const select = (tab) => {
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

setUpTabs();
const table = new Table(document.querySelector(".table-panel"), data);
const settings = setUpSettings(document.querySelector("[data-settings]"), (pace) => table.setPace(pace));
table.setPace(settings.pace());
table.opponents = settings.opponents;
table.start();
