/**
 * The benchmarks' load generator: HTTP/1.1 POSTs written straight to kept-alive TCP sockets, and the answers read
 * with only what a benchmark needs (status, length or chunks, body). Node's `http` client cost bench:onsale about
 * 0.3 ms of CPU per request on the server's own two cores, a third of what the app itself spends; real buyers'
 * clients run on their phones. Wrk and autocannon write their requests the same way, for the same reason.
 *
 * The server gets the same bytes a browser's `fetch` would send for the request (method, path, Host, the given
 * headers, Content-Length, the body); nothing here is specific to our app.
 */
import net from "node:net";

export interface RawResponse {
  status: number;
  text: string;
}

interface Pending {
  resolve: (response: RawResponse) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

const HEADER_END = Buffer.from("\r\n\r\n");

/** One kept-alive connection, one request at a time (no pipelining: each buyer waits for its answer). */
class Connection {
  readonly socket: net.Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: Pending | null = null;
  closed = false;

  constructor(host: string, port: number, onIdle: (connection: Connection) => void, onClose: (connection: Connection) => void) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on("data", (chunk: Buffer) => {
      this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
      let parsed: ReturnType<Connection["parse"]>;
      try {
        parsed = this.parse();
      } catch (error) {
        this.socket.destroy(error as Error);
        return;
      }
      if (!parsed) return;
      const { response, keepAlive } = parsed;
      const pending = this.pending!;
      this.pending = null;
      clearTimeout(pending.timer);
      if (keepAlive) onIdle(this);
      else this.socket.end();
      pending.resolve(response);
    });
    const fail = (error: Error) => {
      this.closed = true;
      onClose(this);
      if (this.pending) {
        clearTimeout(this.pending.timer);
        this.pending.reject(error);
        this.pending = null;
      }
    };
    this.socket.on("error", fail);
    this.socket.on("close", () => fail(new Error("la conexión se cerró antes de la respuesta")));
  }

  send(head: string, body: Buffer, timeoutMs: number): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.socket.destroy(new Error(`sin respuesta en ${timeoutMs / 1000} s`)), timeoutMs);
      this.pending = { resolve, reject, timer };
      this.socket.write(head);
      this.socket.write(body);
    });
  }

  /** A whole response at the front of the buffer, or null while it is still arriving. */
  private parse(): { response: RawResponse; keepAlive: boolean } | null {
    const headerEnd = this.buffered.indexOf(HEADER_END);
    if (headerEnd < 0) return null;
    const lines = this.buffered.toString("latin1", 0, headerEnd).split("\r\n");
    const status = Number(lines[0].split(" ")[1]);
    let contentLength = -1;
    let chunked = false;
    let keepAlive = true;
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(":");
      const name = lines[i].slice(0, colon).trim().toLowerCase();
      const value = lines[i].slice(colon + 1).trim().toLowerCase();
      if (name === "content-length") contentLength = Number(value);
      else if (name === "transfer-encoding") chunked = value.includes("chunked");
      else if (name === "connection") keepAlive = value !== "close";
    }
    const bodyStart = headerEnd + HEADER_END.length;
    let body: Buffer;
    let end: number;
    if (chunked) {
      const parts: Buffer[] = [];
      let at = bodyStart;
      for (;;) {
        const lineEnd = this.buffered.indexOf("\r\n", at);
        if (lineEnd < 0) return null;
        const size = parseInt(this.buffered.toString("latin1", at, lineEnd), 16);
        if (this.buffered.length < lineEnd + 2 + size + 2) return null;
        if (size === 0) {
          end = lineEnd + 4;
          break;
        }
        parts.push(this.buffered.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      if (contentLength < 0) throw new Error("respuesta sin Content-Length ni chunked: este cliente no la sabe leer");
      end = bodyStart + contentLength;
      if (this.buffered.length < end) return null;
      body = this.buffered.subarray(bodyStart, end);
    }
    const response = { status, text: body.toString("utf8") };
    this.buffered = this.buffered.subarray(end);
    return { response, keepAlive };
  }
}

/** POSTs to one origin over as many kept-alive connections as there are requests in flight. */
export function rawHttpClient(baseUrl: string, headers: Record<string, string>) {
  const url = new URL(baseUrl);
  const host = url.hostname;
  const port = Number(url.port || 80);
  const fixedHeaders = Object.entries({ host: url.host, ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const idle: Connection[] = [];
  const all = new Set<Connection>();
  const onIdle = (connection: Connection) => void idle.push(connection);
  const onClose = (connection: Connection) => {
    all.delete(connection);
    const at = idle.indexOf(connection);
    if (at >= 0) idle.splice(at, 1);
  };
  return {
    post(path: string, body: string, timeoutMs: number): Promise<RawResponse> {
      let connection = idle.pop();
      while (connection?.closed) connection = idle.pop();
      if (!connection) {
        connection = new Connection(host, port, onIdle, onClose);
        all.add(connection);
      }
      const bytes = Buffer.from(body, "utf8");
      return connection.send(`POST ${path} HTTP/1.1\r\n${fixedHeaders}content-length: ${bytes.length}\r\n\r\n`, bytes, timeoutMs);
    },
    close() {
      for (const connection of all) connection.socket.destroy();
      all.clear();
      idle.length = 0;
    },
  };
}
