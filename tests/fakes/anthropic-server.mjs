// A fake Anthropic Messages API on 127.0.0.1 (POST /v1/messages). The real `@anthropic-ai/sdk` talks to it
// in the integration suite. Behaviour is picked from the user message:
//   [[error]] → 500 with an upstream error     [[slow]] → answers after 5 s
// With `stream: true` it answers as the real API does (SSE message_start, content_block_start,
// content_block_delta text_delta…, content_block_stop, message_delta, message_stop).
// A key other than FAKE_ANTHROPIC_KEY (sent as `x-api-key` or, as the current SDK does, `Authorization: Bearer`)
// gets 401 like the real API. GET /requests lists what it got.
import { createServer } from "node:http";

export const FAKE_ANTHROPIC_KEY = "sk-ant-test-fake-anthropic-key";

const textOf = (content) =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((b) => b.text ?? "").join("") : "";

function reply(user) {
  const topic =
    user
      .split("\n")
      .find((l) => l.trim())
      ?.slice(0, 60) ?? "your story";
  return `Claude's fake answer about "${topic}": the tide keeps its own counsel.`;
}

function streamAnswer(res, model, text) {
  const pieces = text.match(/\S+\s*/g) ?? [text];
  const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  res.write(
    event("message_start", {
      message: {
        id: "msg_fake",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
  );
  res.write(event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }));
  let i = 0;
  const next = () => {
    if (res.destroyed) return;
    if (i >= pieces.length) {
      res.write(event("content_block_stop", { index: 0 }));
      res.write(
        event("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: pieces.length } }),
      );
      res.end(event("message_stop", {}));
      return;
    }
    res.write(event("content_block_delta", { index: 0, delta: { type: "text_delta", text: pieces[i++] } }));
    setTimeout(next, 10);
  };
  setTimeout(next, 10);
}

export function startFakeAnthropicServer(port = 0) {
  const requests = [];
  const server = createServer((req, res) => {
    res.setHeader("Connection", "close");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/requests") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(requests));
      return;
    }
    const send = (status, payload) => {
      if (res.destroyed) return;
      res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(payload));
    };
    if (req.method !== "POST" || url.pathname !== "/v1/messages") {
      send(404, { type: "error", error: { type: "not_found_error", message: "Not found" } });
      return;
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const json = JSON.parse(body || "{}");
      const apiKey = req.headers["x-api-key"] ?? req.headers.authorization?.replace(/^Bearer /, "");
      const messages = json.messages ?? [];
      const user = textOf(messages.filter((m) => m.role === "user").at(-1)?.content);
      const system = textOf(json.system);
      requests.push({
        model: json.model,
        apiKey,
        version: req.headers["anthropic-version"],
        system,
        user,
        maxTokens: json.max_tokens,
        stream: Boolean(json.stream),
        at: Date.now(),
      });
      if (apiKey !== FAKE_ANTHROPIC_KEY) {
        send(401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });
        return;
      }
      if (typeof json.max_tokens !== "number" || !json.model) {
        send(400, { type: "error", error: { type: "invalid_request_error", message: "max_tokens and model are required" } });
        return;
      }
      if (user.includes("[[error]]")) {
        send(500, { type: "error", error: { type: "api_error", message: "Internal server error" } });
        return;
      }
      if (json.stream) {
        streamAnswer(res, json.model, reply(user));
        return;
      }
      const answer = () =>
        send(200, {
          id: `msg_${requests.length}`,
          type: "message",
          role: "assistant",
          model: json.model,
          content: [{ type: "text", text: reply(user) }],
          stop_reason: "end_turn",
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 20 },
        });
      if (user.includes("[[slow]]")) setTimeout(answer, 5000);
      else answer();
    });
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, url: `http://127.0.0.1:${address.port}`, port: address.port, requests });
    });
  });
}
