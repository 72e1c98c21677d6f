// A fake transactional-mail HTTP API on 127.0.0.1 for the browser suite: the real HttpMailer
// posts here, and tests read the messages back (GET /messages?to=...: the messages, and the newest
// reset `link` and `verifyLink`).
import { createServer } from "node:http";

export function startFakeMailServer(port) {
  const messages = [];
  const server = createServer((req, res) => {
    // No keep-alive: a test's next request could meet a socket the server is closing (ECONNRESET).
    res.setHeader("Connection", "close");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "POST" && url.pathname === "/send") {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        try {
          const msg = JSON.parse(body);
          if (req.headers.authorization !== "Bearer fake-mail-key") {
            res.writeHead(401).end();
            return;
          }
          messages.push({ ...msg, receivedAt: Date.now() });
          res.writeHead(202, { "Content-Type": "application/json" }).end('{"queued":true}');
        } catch {
          res.writeHead(400).end();
        }
      });
      return;
    }
    if (req.method === "GET" && url.pathname === "/messages") {
      const to = url.searchParams.get("to");
      const list = messages.filter((m) => !to || m.to === to);
      // The newest link of each kind: a verification email (sent after registering) and a reset email
      // may arrive in either order.
      const newest = (pattern) =>
        list
          .map((m) => m.text.match(pattern)?.[0])
          .filter(Boolean)
          .at(-1) ?? null;
      const link = newest(/https?:\/\/\S+\/auth\/reset-password\?token=\S+/);
      const verifyLink = newest(/https?:\/\/\S+\/auth\/verify-email\?token=\S+/);
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ messages: list, link, verifyLink }));
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}
