// The header's settings: language, the three visual sliders, the AI pace. Remembered in the
// browser (localStorage; the language also in a cookie, so the server renders the page in it).

const STORE = "kowah-settings";
const SLIDERS = ["contrast", "grain", "temperature"];

function load() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || "{}") || {};
  } catch {
    return {};
  }
}

function save(values) {
  try {
    localStorage.setItem(STORE, JSON.stringify(values));
  } catch {
    // private mode: the settings last for this page only
  }
}

// 50 is neutral for every slider.
export function apply(root, values) {
  const contrast = Number(values.contrast ?? 50);
  const grain = Number(values.grain ?? 50);
  const temperature = Number(values.temperature ?? 50);
  root.style.setProperty("--contrast", (0.5 + contrast / 100).toFixed(3));
  root.style.setProperty("--grain", (grain / 100 * 0.32).toFixed(3));
  // Below 50 warmer, above 50 cooler.
  root.style.setProperty("--warm", (Math.max(0, 50 - temperature) / 50 * 0.55).toFixed(3));
  root.style.setProperty("--cool", (Math.max(0, temperature - 50) / 50 * 0.55).toFixed(3));
}

export function setUp(form, onPace) {
  const values = load();
  const root = document.documentElement;
  for (const name of SLIDERS) {
    const input = form.elements.namedItem(name);
    const output = form.querySelector(`output[data-for=${name}]`);
    if (values[name] !== undefined) input.value = String(values[name]);
    const show = () => {
      output.value = `${input.value}%`;
      input.setAttribute("aria-valuetext", `${input.value}%`);
    };
    show();
    input.addEventListener("input", () => {
      values[name] = Number(input.value);
      show();
      apply(root, values);
      save(values);
    });
  }
  apply(root, values);

  const pace = form.elements.namedItem("pace");
  const forced = new URLSearchParams(location.search).get("pace");
  if (values.pace !== undefined) pace.value = String(values.pace);
  const currentPace = () => (forced !== null && !Number.isNaN(Number(forced)) ? Number(forced) : Number(pace.value));
  pace.addEventListener("change", () => {
    values.pace = pace.value;
    save(values);
    onPace(currentPace());
  });

  const opponents = form.elements.namedItem("opponents");
  if (values.opponents && [...opponents.options].some((option) => option.value === values.opponents)) {
    opponents.value = values.opponents;
  }
  opponents.addEventListener("change", () => {
    values.opponents = opponents.value;
    save(values);
  });

  const lang = form.elements.namedItem("lang");
  lang.addEventListener("change", () => {
    document.cookie = `kowah-lang=${encodeURIComponent(lang.value)}; path=/; max-age=31536000; SameSite=Strict`;
    const url = new URL(location.href);
    url.searchParams.set("lang", lang.value);
    location.assign(url.toString());
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  return { pace: currentPace, opponents: () => opponents.value };
}
