// The header's settings: language, the three visual sliders (they change the whole page), the
// AI level and pace, card codes in sentences, move sounds. Remembered in this browser
// (localStorage; the language also in a cookie, so that the server renders the page in it).
// On a narrow screen the settings fold into a menu.

import { STORAGE } from "./constants.js";
import { readStorage, writeStorage } from "./dom.js";

const SLIDERS = ["contrast", "grain", "temperature"];

function load() {
  try {
    return JSON.parse(readStorage(STORAGE.settings, "{}")) || {};
  } catch {
    return {};
  }
}

// 50 is neutral for contrast and temperature; the grain goes from none (0) to heavy (100).
export function apply(root, values) {
  const contrast = Number(values.contrast ?? 50);
  const grain = Number(values.grain ?? 50);
  const temperature = Number(values.temperature ?? 50);
  const mark = (name, on, value = "") => {
    if (on) root.dataset[name] = value;
    else delete root.dataset[name];
  };
  root.style.setProperty("--contrast", (0.5 + contrast / 100).toFixed(3));
  mark("contrast", contrast !== 50);
  root.style.setProperty("--grain", (grain / 100 * 0.7).toFixed(3));
  mark("grain", grain > 0);
  // Below 50 warmer, above 50 cooler: a veil of orange or blue over the whole page.
  root.style.setProperty("--warm", (Math.max(0, 50 - temperature) / 50 * 0.16).toFixed(3));
  root.style.setProperty("--cool", (Math.max(0, temperature - 50) / 50 * 0.16).toFixed(3));
  mark("tint", temperature !== 50, temperature < 50 ? "warm" : "cool");
}

function setUpMenu(header) {
  const button = header.querySelector("[data-menu]");
  const toggle = (open) => {
    if (open) header.setAttribute("data-open", "");
    else header.removeAttribute("data-open");
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => toggle(!header.hasAttribute("data-open")));
  header.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && header.hasAttribute("data-open")) {
      toggle(false);
      button.focus();
      event.stopPropagation();
    }
  });
  document.addEventListener("click", (event) => {
    if (header.hasAttribute("data-open") && !header.contains(event.target)) toggle(false);
  });
}

export function setUp(form, words, { cookie, onPace, onCodes, onSounds }) {
  const values = load();
  const save = () => writeStorage(STORAGE.settings, JSON.stringify(values));
  const root = document.documentElement;
  for (const name of SLIDERS) {
    const input = form.elements.namedItem(name);
    const output = form.querySelector(`output[data-for=${name}]`);
    if (values[name] !== undefined) input.value = String(values[name]);
    const show = () => {
      output.value = words.percent(Number(input.value));
      input.setAttribute("aria-valuetext", output.value);
    };
    show();
    input.addEventListener("input", () => {
      values[name] = Number(input.value);
      show();
      apply(root, values);
      save();
    });
  }
  apply(root, values);
  setUpMenu(form.closest("header"));

  const pace = form.elements.namedItem("pace");
  const forced = new URLSearchParams(location.search).get("pace");
  if (values.pace !== undefined) pace.value = String(values.pace);
  const currentPace = () => (forced !== null && !Number.isNaN(Number(forced)) ? Number(forced) : Number(pace.value));
  pace.addEventListener("change", () => {
    values.pace = pace.value;
    save();
    onPace(currentPace());
  });

  const opponents = form.elements.namedItem("opponents");
  if (values.opponents && [...opponents.options].some((option) => option.value === values.opponents)) {
    opponents.value = values.opponents;
  }
  opponents.addEventListener("change", () => {
    values.opponents = opponents.value;
    save();
  });

  for (const [name, handler] of [["codes", onCodes], ["sounds", onSounds]]) {
    const box = form.elements.namedItem(name);
    box.checked = Boolean(values[name]);
    box.addEventListener("change", () => {
      values[name] = box.checked;
      save();
      handler(box.checked);
    });
  }

  const lang = form.elements.namedItem("lang");
  lang.addEventListener("change", () => {
    document.cookie = `${cookie}=${encodeURIComponent(lang.value)}; path=/; max-age=31536000; SameSite=Strict`;
    const url = new URL(location.href);
    url.searchParams.set("lang", lang.value);
    location.assign(url.toString());
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  onPace(currentPace());
  onCodes(Boolean(values.codes));
  onSounds(Boolean(values.sounds));
  return { pace: currentPace, opponents: () => opponents.value };
}
