// Where the static site keeps its games: IndexedDB, one entry a game (its saved text), written
// after every change before the page gets the answer. Used by the Worker (worker.js).

const NAME = "kowah-site";
const STORE = "games";
// The games kept: the one in play and the few before it (their records can still be reviewed).
const KEPT = 4;

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function finished(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = transaction.onerror = () => reject(transaction.error || new Error("aborted"));
  });
}

export class Keep {
  constructor(db) {
    this.db = db;
  }

  // The store, or null when the browser refuses it (every change is then refused, and said).
  static async open() {
    try {
      const request = indexedDB.open(NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
      return new Keep(await done(request));
    } catch {
      return null;
    }
  }

  // The saved texts of the games kept, oldest first.
  async all() {
    const transaction = this.db.transaction(STORE, "readonly");
    const games = await done(transaction.objectStore(STORE).getAll());
    return games.sort((a, b) => a.at - b.at).map((game) => game.text);
  }

  // Keep *text* as game *id*; with *fresh* (a new game), let the oldest beyond KEPT go.
  async put(id, text, fresh) {
    const transaction = this.db.transaction(STORE, "readwrite");
    const store = transaction.objectStore(STORE);
    store.put({ id, text, at: Date.now() });
    if (fresh) {
      const games = await done(store.getAll());
      games.sort((a, b) => b.at - a.at).slice(KEPT).forEach((game) => store.delete(game.id));
    }
    await finished(transaction);
  }
}
