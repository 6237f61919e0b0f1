// One table's websocket (docs/protocol.md, "The websocket"): says hello with the seat token
// (or none, to watch), answers every ping at once, keeps the log position, and reconnects
// after a drop with `log_from` so that no event is lost or shown twice.

/** Close codes after which reconnecting cannot help. */
const FINAL_CLOSES = {
  4001: "replaced", // a newer connection holds this seat (another tab)
  4003: "bad_token", // three wrong tokens in a row
  4404: "no_table",
};

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {string|null} token  the seat token, or null to watch
   * @param {(frame: object, info: {logFrom: number}) => void} onFrame  every frame but
   *   pings; `logFrom` is where the current connection's log began (0: the whole log)
   * @param {(state: string, detail?: object) => void} onState  "connecting", "open",
   *   "reconnecting" ({inMs, attempt}), or "closed" ({reason})
   */
  constructor(tableId, token, { onFrame, onState }) {
    this.tableId = tableId;
    this.token = token;
    this.onFrame = onFrame;
    this.onState = onState;
    /** The raw log position of the last event received: the next hello's `log_from`. */
    this.logIndex = 0;
    /** Whether the server speaks `words`; false after it refused the field. */
    this.words = true;
    this.ws = null;
    this.welcomed = false;
    this.attempt = 0;
    this.stopped = false;
    this.timer = null;
    this.helloFrom = 0;
    this.state = "idle";
  }

  get url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  /** Close for good (leaving the page, or changing token). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000, "bye");
    this.ws = null;
  }

  /** Start again with another token (after joining a seat), from the beginning of the log. */
  restart(token) {
    this.stop();
    this.token = token;
    this.logIndex = 0;
    this.attempt = 0;
    this.start();
  }

  /** Send a message; false when not connected (the caller says so to the player). */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.welcomed) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  setState(state, detail = {}) {
    this.state = state;
    this.onState(state, detail);
  }

  hello() {
    this.helloFrom = this.logIndex;
    const message = { type: "hello", token: this.token, log_from: this.logIndex };
    if (this.words) message.words = true;
    this.ws.send(JSON.stringify(message));
  }

  connect() {
    clearTimeout(this.timer);
    this.welcomed = false;
    this.setState(this.attempt === 0 ? "connecting" : "reconnecting", { attempt: this.attempt });
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => this.hello();
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(frame);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.welcomed = false;
      if (this.stopped) return;
      const reason = FINAL_CLOSES[event.code];
      if (reason) {
        this.stopped = true;
        this.setState("closed", { reason });
        return;
      }
      const inMs = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.setState("reconnecting", { inMs, attempt: this.attempt });
      this.timer = setTimeout(() => this.connect(), inMs);
    };
  }

  receive(frame) {
    if (frame.type === "ping") {
      // At once: the server times the lamp race with these round trips.
      this.ws.send(JSON.stringify({ type: "pong", nonce: frame.nonce }));
      return;
    }
    if (!this.welcomed && frame.type === "error" && frame.code === "bad_message" && this.words
        && /words/.test(frame.message || "")) {
      // A server without `words` refused the hello: say it again without.
      this.words = false;
      this.hello();
      return;
    }
    if (frame.type === "welcome") {
      this.welcomed = true;
      this.attempt = 0;
      this.setState("open");
    }
    if ((frame.type === "welcome" || frame.type === "update") && typeof frame.log_index === "number") {
      this.logIndex = frame.log_index;
    }
    // A welcome's log starts where the hello asked: the page appends it after a reconnect.
    this.onFrame(frame, { logFrom: this.helloFrom });
  }
}
