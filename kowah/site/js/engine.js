// The static site's transport: api.js's requests posted to the Web Worker (worker.js), which
// answers them as kowah serve would; each answer comes back as a fetch() Response, so the
// page reads it as it reads the server's.

export class Engine {
  // The Worker starts when *before* resolves (see offline.js).
  constructor(before, workerUrl, start) {
    this.next = 1;
    this.waiting = new Map();
    this.ready = new Promise((resolve, reject) => {
      this.started = resolve;
      this.failed = reject;
    });
    before.then(() => {
      performance.mark("kowah:worker-created");
      this.worker = new Worker(workerUrl, { type: "module" });
      this.worker.onmessage = ({ data }) => this.message(data);
      this.worker.onerror = (event) => this.failed(new Error(event.message || "worker"));
      this.worker.postMessage({ type: "start", ...start });
    });
  }

  message(data) {
    if (data.type === "ready") {
      // The Worker's steps, on the page's timeline (for benchmarks/site.py).
      for (const [name, at] of Object.entries(data.marks ?? {})) {
        performance.mark(`kowah:${name}`, { startTime: Math.max(0, at - performance.timeOrigin) });
      }
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
