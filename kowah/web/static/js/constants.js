// Names and numbers the page's modules share, in one place. The language cookie's name comes
// from the server with the page's data (data.cookie), so that it is written in one place only.

export const STORAGE = {
  settings: "kowah-settings", // the visual and game settings of this browser
  game: "kowah-game", // the id of the solo game this browser plays at "/"
  token: (id) => `kowah-token:${id}`, // the seat key of a game
};

// The card pictures' folder: /cards/ on the server, beside static/ in a static site (kowah site).
export const CARDS = new URL("../../cards/", import.meta.url).pathname;

// How often the page asks for the state when the live socket is down, and how long it waits
// before trying the socket again (seconds).
export const POLL_SECONDS = 2;
export const SOCKET_RETRY_SECONDS = 3;

// The most lines the live region keeps (older ones are removed: they have been read).
export const LIVE_LINES = 6;

// An AI's draw shows for a third of the pace; its discard or declaration for the whole pace.
export const DRAW_SHARE = 1 / 3;

// The seconds under which the turn clock turns red and is announced once.
export const CLOCK_WARNING = 10;
