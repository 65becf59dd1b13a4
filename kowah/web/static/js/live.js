// Live updates: the game's WebSocket (GET /api/games/{id}/live) tells the page when the game
// changes; when the socket cannot be opened or is lost, the page polls every POLL_SECONDS and
// says so, and tries the socket again. Every message carries the game's version: the page
// fetches what it lacks (?since=), so that a reconnection resumes exactly.

import { POLL_SECONDS, SOCKET_RETRY_SECONDS } from "./constants.js";

// A ping every PING_SECONDS; a pong not back within PONG_SECONDS means a half-open socket: the
// page says so and polls (a lost connection is noticed within 10 seconds).
const PING_SECONDS = 5;
const PONG_SECONDS = 5;
// No such game, a bad key, a bad first message, a foreign origin, a damaged game: trying
// again cannot help.
const GONE = new Set([4400, 4401, 4403, 4404, 4500]);

export class Live {
  // handlers: changed(version) — the game is at this version; presence(connected) — who is
  // connected; mode("live" | "polling") — how the page learns of changes.
  constructor(api, id, handlers) {
    this.api = api;
    this.id = id;
    this.handlers = handlers;
    this.socket = null;
    this.stopped = true;
    this.timers = { poll: null, retry: null, ping: null, pong: null };
    this.mode = null;
    this.connected = null; // who is connected, as the socket last said (null: not live)
  }

  // *state* with who is connected as the socket last said. The socket tells every change as
  // it happens, so its latest word is newer than a state asked for before it came.
  withPresence(state) {
    const connected = this.connected;
    if (!connected || !state.seats) return state;
    return { ...state, seats: state.seats.map((seat, index) => ({ ...seat, connected: connected[index] })) };
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    for (const key of Object.keys(this.timers)) {
      clearInterval(this.timers[key]);
      clearTimeout(this.timers[key]);
      this.timers[key] = null;
    }
    if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      socket.onclose = null;
      socket.close();
    }
  }

  setMode(mode) {
    if (this.mode === mode) return;
    this.mode = mode;
    if (mode !== "live") this.connected = null; // the states say who is connected then
    this.handlers.mode(mode);
  }

  connect() {
    const url = this.api.liveUrl(this.id);
    if (this.stopped || url === null) return; // null: the page is the game's only client
    let socket;
    try {
      socket = new WebSocket(url);
    } catch {
      this.lost(null);
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      const token = this.api.token(this.id);
      socket.send(JSON.stringify(token ? { token } : {}));
    };
    socket.onmessage = (event) => this.message(event.data);
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.lost(event.code);
    };
  }

  message(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === "hello") {
      this.setMode("live");
      this.stopPolling();
      clearInterval(this.timers.ping);
      this.timers.ping = setInterval(() => this.ping(), PING_SECONDS * 1000);
    }
    if (message.type === "pong") {
      clearTimeout(this.timers.pong);
      this.timers.pong = null;
    }
    if (message.connected) {
      this.connected = message.connected;
      this.handlers.presence(message.connected);
    }
    if (typeof message.version === "number") this.handlers.changed(message.version);
  }

  ping() {
    const socket = this.socket;
    this.send({ type: "ping" });
    if (this.timers.pong) return; // the pong of an earlier ping is still awaited
    this.timers.pong = setTimeout(() => {
      if (this.socket !== socket) return;
      this.socket = null;
      socket.onclose = null;
      socket.close();
      this.lost(null);
    }, PONG_SECONDS * 1000);
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  lost(code) {
    clearInterval(this.timers.ping);
    clearTimeout(this.timers.pong);
    this.timers.pong = null;
    if (this.stopped) return;
    this.setMode("polling");
    if (!this.timers.poll) {
      this.timers.poll = setInterval(() => this.handlers.changed(null), POLL_SECONDS * 1000);
    }
    if (!GONE.has(code)) {
      clearTimeout(this.timers.retry);
      this.timers.retry = setTimeout(() => this.connect(), SOCKET_RETRY_SECONDS * 1000);
    }
  }

  stopPolling() {
    clearInterval(this.timers.poll);
    this.timers.poll = null;
  }
}
