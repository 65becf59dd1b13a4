// The table: keeps the state the server sent, plays the events of each new state back at the
// chosen pace (the server sends the state right after each event; Skip jumps to the present),
// draws it and tells screen readers what matters. It never works out the rules itself.

import { CLOCK_WARNING, DRAW_SHARE } from "./constants.js";
import { pause } from "./dom.js";
import { mover, places, renderMiddle, renderOther } from "./board.js";
import { showClock, statusLine } from "./status.js";
import { renderYou } from "./hand.js";
import { renderOutcome } from "./outcome.js";
import { Live } from "./live.js";
import { othersMoves } from "./log.js";


export class Table {
  constructor(root, words, api, log, announcer, sounds) {
    Object.assign(this, { root, words, api, log, announcer, sounds });
    this.lang = words.lang;
    this.pace = 0.8;
    this.state = null;
    this.frame = null; // the state right after an event, while playing back
    this.busy = false; // an action is on its way to the server
    this.playing = null; // an AbortController while playing back
    this.fresh = null; // the card you just drew or took
    this.lastDiscarder = null;
    this.advice = null;
    this.live = null;
    this.queue = Promise.resolve();
    this.listeners = [];
    this.deadline = null; // performance.now() at which the mover's clock runs out
    this.warned = null;
    setInterval(() => this.tick(), 250);
  }

  get me() {
    return this.state ? this.state.seat ?? null : null;
  }

  onChange(listener) {
    this.listeners.push(listener);
  }

  // Runs the state changes one after another, so that a socket's news and an action's answer
  // never interleave.
  serial(work) {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => {});
    return next;
  }

  // -- opening a game ----------------------------------------------------------------------

  async open(id, first = null) {
    if (this.live) this.live.stop();
    this.skip();
    const state = first ?? await this.api.state(id);
    await this.serial(() => this.show(state, true));
    this.live = new Live(this.api, state.id, {
      changed: (version) => this.changed(version),
      presence: (connected) => this.presence(connected),
      mode: (mode) => this.listeners.forEach((listener) => listener("mode", mode)),
    });
    if (state.status !== "closed") this.live.start();
  }

  // A whole state at once: a new game, or the first look at one.
  show(state, announce) {
    this.log.clear();
    this.state = state;
    this.frame = this.advice = this.fresh = this.lastDiscarder = null;
    this.played = false; // whether you have acted in this deal (New deal then asks first)
    for (const event of state.events) this.note(event);
    if (announce) {
      const me = this.me;
      if (me !== null && Array.isArray(state.hand) && state.status !== "waiting") {
        this.announcer.say(state.said.deal);
        if (!this.played) othersMoves(state.events, me).forEach((text) => this.announcer.say(text));
      } else if (me === null) this.announcer.say(this.words.t("announce.deal.watch"));
    }
    this.arrived(state, true);
    this.render(); // after arrived(): the clock's badge is drawn with the state
  }

  // What an event changes on the page besides the log: the fresh card, the latest discard's pile.
  note(event) {
    this.log.add(event, this.me);
    if (event.kind === "discard") this.lastDiscarder = event.seat;
    if (event.kind === "take") this.lastDiscarder = null;
    if (event.seat === this.me && this.me !== null && event.kind !== "win") this.played = true;
    if (event.seat === this.me && (event.kind === "draw" || event.kind === "take")) this.fresh = event.card;
    if (event.seat === this.me && event.kind === "discard") this.fresh = null;
  }

  // -- news from the server ----------------------------------------------------------------

  changed(version) {
    if (!this.state || (version !== null && version <= this.state.version)) return;
    if (this.busy) {
      this.missed = true; // the action's answer comes first; look again after it
      return;
    }
    this.serial(async () => {
      if (!this.state) return;
      try {
        await this.take(await this.api.state(this.state.id, this.state.version));
      } catch (error) {
        if (error.status !== 0) this.problem(error);
      }
    });
  }

  presence(connected) {
    if (!this.state || !this.state.seats) return;
    this.state = this.live.withPresence(this.state);
    this.render();
    this.listeners.forEach((listener) => listener("presence", connected));
  }

  absorb(state) {
    return this.serial(() => this.take(state));
  }

  async take(next) {
    const old = this.state;
    if (!old || old.id !== next.id || (old.deal ?? 1) !== (next.deal ?? 1)) { // a new game or deal
      this.show(next, true);
      return;
    }
    if (old.status === "waiting" && next.status === "playing" && Array.isArray(next.hand)) {
      this.announcer.say(next.said.deal);
    }
    if (next.version < old.version) return;
    if (next.events_from > old.version) next = await this.api.state(next.id, old.version);
    next = this.live?.withPresence(next) ?? next; // (the socket's word is newer)
    const events = next.events.slice(Math.max(0, old.version - next.events_from));
    if (events.length) await this.play(events, next);
    else this.state = next;
    this.arrived(next, events.length > 0);
    this.render();
  }

  // Plays *events* back, each with the state right after it, then shows *next*.
  async play(events, next) {
    const controller = new AbortController();
    this.playing = controller;
    this.advice = null;
    const framed = events.some((event) => event.view);
    for (const event of events) {
      this.note(event);
      if (controller.signal.aborted) continue;
      if (event.view) {
        this.frame = event.view;
        this.render();
      }
      if (event.kind !== "win") this.announcer.say(event.text); // the outcome's sentence says it
      if (event.kind === "declare" || event.kind === "win") this.sounds.play("claim");
      const others = event.seat !== this.me;
      if (framed && others && this.pace > 0 && event.kind !== "win" && event.kind !== "drawn") {
        await pause(event.kind === "draw" ? this.pace * DRAW_SHARE : this.pace, controller.signal);
      }
    }
    this.frame = null;
    this.state = this.live?.withPresence(next) ?? next; // (it may have spoken meanwhile)
    if (this.playing === controller) this.playing = null;
  }

  skip() {
    if (this.playing) this.playing.abort();
  }

  // A new state's clock (drawn by the next render), and what the player must hear now.
  arrived(state, moved) {
    this.deadline = typeof state.seconds_left === "number" ? performance.now() + state.seconds_left * 1000 : null;
    if (moved) this.warned = null;
    this.listeners.forEach((listener) => listener("state", state));
    if (!moved) return;
    if (state.outcome) {
      this.sounds.play("end");
      this.announcer.say(state.outcome_text);
      return;
    }
    if (mover(state) === this.me && state.legal && state.legal.length) {
      this.sounds.play("turn");
      this.announcer.say(this.status());
    }
  }

  // -- drawing -----------------------------------------------------------------------------

  shown() {
    const state = this.state;
    const shown = this.frame ? { ...state, ...this.frame, outcome: null, winning_hand: null } : state;
    return { ...shown, viewSeat: places(state.seat).bottom };
  }

  legal() {
    return this.busy || this.playing || !this.state ? [] : this.state.legal || [];
  }

  ui(shown) {
    const m = mover(shown);
    const left = this.deadline === null ? null : (this.deadline - performance.now()) / 1000;
    const clock = left === null || m === null || this.frame ? null : { seat: m, left, low: left <= CLOCK_WARNING };
    return { legal: this.legal(), fresh: this.fresh, lastDiscarder: this.lastDiscarder, clock, status: this.status() };
  }

  render() {
    const state = this.state;
    this.root.dataset.busy = String(this.busy || !state);
    this.root.dataset.playing = String(Boolean(this.playing));
    this.root.querySelector("[data-playback]").hidden = !this.playing;
    if (!state) return;
    Object.assign(this.root.dataset, { game: state.id, version: String(state.version) });
    const shown = this.shown();
    const ui = this.ui(shown);
    const seats = places(state.seat);
    for (const place of ["left", "right"]) {
      renderOther(this.root.querySelector(`[data-place=${place}]`), this.words, shown, seats[place], ui, this.lang);
    }
    renderMiddle(this.root, this.words, shown, ui.legal, this.lang);
    renderYou(this.root, this.words, shown, ui, this.lang);
    this.root.querySelector("[data-status]").dataset.mover = String(mover(shown));
    renderOutcome(this.root, this.words, shown, this.api.recordUrl(state.id), this.lang);
    this.listeners.forEach((listener) => listener("render", shown));
  }

  status() {
    return statusLine(this.words, this.state, this.frame, Boolean(this.playing));
  }

  tick() {
    if (this.deadline === null || !this.state) return;
    const left = (this.deadline - performance.now()) / 1000;
    showClock(this.root, this.words, left);
    const m = mover(this.state);
    if (m === this.me && m !== null && left <= CLOCK_WARNING && this.warned !== this.state.version) {
      this.warned = this.state.version;
      this.announcer.say(this.words.t("announce.ten"));
    }
  }

  alert(text) {
    this.root.querySelector("[data-alert]").textContent = text;
  }

  problem(error) {
    this.alert(error.status === 0 ? this.words.t("error.network") : error.message);
  }
}
