// The status line and the turn clock: what you may do now, or who is to move, named as the
// table names them ("Your turn: …", "Bo is playing…", "Seat 2 is playing…").

import { CLOCK_WARNING } from "./constants.js";
import { mover } from "./board.js";

export function statusLine(words, state, frame, playing) {
  if (!state) return words.t("status.loading");
  const shown = frame ? { ...state, ...frame, outcome: null } : state;
  const me = state.seat ?? null;
  if (shown.status === "closed") return words.t("status.closed");
  if (shown.status === "waiting") return words.t("status.waiting");
  if (shown.outcome) return words.t("status.over");
  const m = mover(shown);
  if (me !== null && state.seats && state.seats[me] && state.seats[me].left) return words.t("status.left");
  if (m !== null && m !== me) return state.said.waiting[m];
  if (playing) return words.t("playing");
  if (m === me && me !== null) {
    if (shown.declared && shown.declared[me]) return words.t("hand.locked");
    const kinds = new Set((state.legal || []).map((action) => action.do));
    if (kinds.has("declare")) return words.t("status.declare");
    if (kinds.has("discard")) return words.t("status.discard");
    if (kinds.has("take")) return words.t("status.start");
    if (kinds.has("draw")) return words.t("status.draw");
  }
  return me === null ? words.t("status.watching") : "";
}

// The clock badges count down between two states (the server's deadline, in local time).
export function showClock(root, words, left) {
  for (const badge of root.querySelectorAll("[data-clock]")) {
    badge.firstChild.textContent = words.t("clock", { time: words.time(left) });
    badge.classList.toggle("low", left <= CLOCK_WARNING);
  }
}
