// The static site's transport: api.js's requests posted to the Web Worker (worker.js), which
// answers them as kowah serve would; each answer comes back as a fetch() Response, so the
// page reads it as it reads the server's.

export class Engine {
  // The Worker starts when *before* resolves (see offline.js), unless start.js started it
  // already (*early*: the Worker, the messages it sent before this, an error it met).
  constructor(before, workerUrl, start, early = null) {
    this.next = 1;
    this.waiting = new Map();
    this.ready = new Promise((resolve, reject) => {
      this.started = resolve;
      this.failed = reject;
    });
    if (early) {
      this.attach(early.worker);
      for (const data of early.missed) this.message(data);
      if (early.error) this.failed(new Error(early.error));
      return;
    }
    before.then(() => {
      performance.mark("kowah:worker-created");
      this.attach(new Worker(workerUrl, { type: "module" }));
      this.worker.postMessage({ type: "start", ...start });
    });
  }

  attach(worker) {
    this.worker = worker;
    this.worker.onmessage = ({ data }) => this.message(data);
    this.worker.onerror = (event) => this.failed(new Error(event.message || "worker"));
  }

  message(data) {
    if (data.type === "ready") {
      // The Worker's steps, on the page's timeline (for benchmarks/site.py).
      for (const [name, at] of Object.entries(data.marks ?? {})) {
        performance.mark(`kowah:${name}`, { startTime: Math.max(0, at - performance.timeOrigin) });
      }
      this.start = data.start; // "snapshot" (restored) or "fresh"
      this.started();
    }
    else if (data.type === "failed") this.failed(new Error(data.message));
    const waiting = this.waiting.get(data.id);
    if (!waiting) return;
    this.waiting.delete(data.id);
    if (data.id === 1) performance.mark("kowah:first-answer");
    waiting(new Response(data.body, { status: data.status, headers: data.headers }));
  }

  // fetch(url, options) for the page's API calls (url: a URL object or text).
  async send(url, options = {}) {
    const address = new URL(url, location.origin);
    if (this.next === 1) performance.mark("kowah:first-request");
    await this.ready;
    const headers = options.headers || {};
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, method: options.method || "GET", path: address.pathname,
        query: address.search.slice(1), auth: headers.authorization ?? null, body: options.body ?? "" });
    });
  }
}
