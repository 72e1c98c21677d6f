// A fake OpenAI-compatible chat completions server on 127.0.0.1. The real `openai` SDK talks to it
// in the integration and browser suites. Behaviour is picked from the last user message:
//   [[error]]  → 500 with an upstream error message     [[slow]] → answers after 5 s
//   [[long-title]] → a first line longer than 50 characters
// With `stream: true` it answers as the real API does (SSE `chat.completion.chunk`s, then `data: [DONE]`),
// a few words per chunk, `chunkDelayMs` apart (startFakeOpenAIServer's second argument, default 20):
//   [[slowstream]] → 250 ms between chunks        [[break]] → two chunks, then the connection drops
// Each request (with its messages) is recorded; GET /requests lists them, the last one last.
// A key other than the expected one gets 401, like the real API. GET /requests lists what it got.
import { createServer } from "node:http";

export const FAKE_OPENAI_KEY = "sk-test-fake-openai-key";

function reply(system, user) {
  if (user.includes("[[long-title]]")) {
    return '## **"The Night the Lighthouse Keeper Finally Opened the Sealed Letter From Her Brother"**\nShe reads it by the lamp.\nThe ship never comes.';
  }
  const topic =
    user
      .split("\n")
      .find((l) => l.trim())
      ?.slice(0, 60) ?? "your story";
  if (/character profile/i.test(system)) {
    return `Name: Mara Quill\n\nBackground: ${topic}.\n\n- Wants: to be believed\n- Fears: the sea at night\n\nA quiet voice that carries.`;
  }
  if (/plot event/i.test(system)) {
    return `# **"A Bell Beneath the Tide"**\nWhile ${topic.toLowerCase()}, a drowned bell starts ringing at low tide.\nThe keeper must decide who to warn first.`;
  }
  return `Here is an idea for "${topic}":\n\n1. Open with a sound nobody else hears.\n2. Let the stranger lie once.\n\nEnd on the tide turning.`;
}

/** The answer as OpenAI streaming chunks: the text split into pieces of two words, `delay` ms apart. */
function streamAnswer(res, model, text, { delay, breakAfter }) {
  const pieces = text.match(/\S+\s*\S*\s*/g) ?? [text];
  const id = `chatcmpl-stream-${Date.now()}`;
  const chunk = (delta, finish = null) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
  res.write(chunk({ role: "assistant", content: "" }));
  let i = 0;
  const next = () => {
    if (res.destroyed) return;
    if (breakAfter !== null && i >= breakAfter) {
      res.destroy();
      return;
    }
    if (i >= pieces.length) {
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
      return;
    }
    res.write(chunk({ content: pieces[i++] }));
    setTimeout(next, delay);
  };
  setTimeout(next, delay);
}

export function startFakeOpenAIServer(port = 0, chunkDelayMs = 20) {
  const requests = [];
  const server = createServer((req, res) => {
    // No keep-alive: a test's next request could meet a socket the server is closing (ECONNRESET).
    res.setHeader("Connection", "close");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/requests") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(requests));
      return;
    }
    if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
      res.writeHead(404, { "Content-Type": "application/json" }).end('{"error":{"message":"Not found"}}');
      return;
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const json = JSON.parse(body || "{}");
      const messages = json.messages ?? [];
      const system = messages.find((m) => m.role === "system")?.content ?? "";
      const user = messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
      requests.push({
        model: json.model,
        authorization: req.headers.authorization,
        system,
        user,
        messages,
        stream: Boolean(json.stream),
        at: Date.now(),
      });
      const send = (status, payload) => {
        if (res.destroyed) return;
        res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(payload));
      };
      if (req.headers.authorization !== `Bearer ${FAKE_OPENAI_KEY}`) {
        send(401, { error: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" } });
        return;
      }
      if (user.includes("[[error]]")) {
        send(500, { error: { message: "The fake model is overloaded. Try again later.", type: "server_error" } });
        return;
      }
      if (json.stream) {
        streamAnswer(res, json.model, reply(system, user), {
          delay: user.includes("[[slowstream]]") ? 250 : chunkDelayMs,
          breakAfter: user.includes("[[break]]") ? 2 : null,
        });
        return;
      }
      const answer = () =>
        send(200, {
          id: `chatcmpl-${requests.length}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: json.model,
          choices: [{ index: 0, message: { role: "assistant", content: reply(system, user) }, finish_reason: "stop" }],
          usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
        });
      if (user.includes("[[slow]]")) setTimeout(answer, 5000);
      else answer();
    });
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, url: `http://127.0.0.1:${address.port}/v1`, port: address.port, requests });
    });
  });
}
