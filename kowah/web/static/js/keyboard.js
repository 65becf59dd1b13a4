// The table's keys: a letter per action (in the page's language, see "Keys" under the log), the
// digits 1–9 for the cards of your hand, Esc to skip a playback, "/" for the command box, and
// the arrow keys along your hand and along each pile of discards.

const ACTIONS = { draw: "draw", take: "take", pass: "pass", hint: "hint", new: "new-deal" };

function move(items, current, step) {
  if (!items.length) return;
  const index = items.indexOf(current);
  const next = index < 0 ? (step > 0 ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, index + step));
  items[next].focus();
}

export function setUpKeys(root, words, play, { command }) {
  const click = (selector) => {
    const button = root.querySelector(selector);
    if (button && !button.disabled && !button.hidden && button.offsetParent !== null) {
      button.click();
      return true;
    }
    return false;
  };
  const letters = {};
  for (const [action, target] of Object.entries(ACTIONS)) letters[words.key(action).toLowerCase()] = target;
  const declareKey = words.key("declare").toLowerCase();
  // The English letters too, wherever the language's own letters leave them free.
  const english = words.s["keys.english"];
  for (const [action, target] of Object.entries(ACTIONS)) {
    const letter = english[action].toLowerCase();
    if (!(letter in letters) && letter !== declareKey) letters[letter] = target;
  }
  const englishDeclare = english.declare.toLowerCase();
  const declares = (key) => key === declareKey || (key === englishDeclare && !(key in letters));

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const target = event.target;
    if (document.querySelector("dialog[open]")) return;
    if (target.closest && target.closest("input, select, textarea, [role=tab], .top")) return;
    if (root.hidden || root.closest("[hidden]")) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    let done = false;
    if (key === "/") {
      command.focus();
      done = true;
    } else if (key === "Escape") done = click("[data-action=skip]");
    else if (letters[key]) done = click(`.actions [data-action=${letters[key]}]`);
    else if (declares(key)) {
      const declares = [...root.querySelectorAll("[data-action=declare]:not(:disabled)")];
      if (declares.length === 1) done = click("[data-action=declare]");
      else if (declares.length > 1) {
        declares[0].focus();
        done = true;
      }
    } else if (/^[1-9]$/.test(key)) {
      const card = root.querySelector(`[data-hand=you] [data-position="${key}"]`);
      if (card && card.getAttribute("aria-disabled") !== "true") {
        card.click();
        done = true;
      }
    } else if (key === "ArrowRight" || key === "ArrowLeft") {
      const step = key === "ArrowRight" ? 1 : -1;
      const roving = target.closest && target.closest("[data-roving]");
      if (target.closest && target.closest("[data-hand=you]")) {
        move([...root.querySelectorAll("[data-hand=you] [data-card]")], target.closest("[data-card]"), step);
        done = true;
      } else if (roving) {
        move([...roving.querySelectorAll("[data-item]")], target.closest("[data-item]"), step);
        done = true;
      }
    }
    if (done) event.preventDefault();
  });
}

// The keys as the page shows them under the log (and the command box's "help" reads them):
// the line the text layer wrote (kowah.web.text.keys_line).
export function keysText(words) {
  return words.t("keys.text");
}
