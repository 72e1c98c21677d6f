// A fake OpenAI-compatible chat completions server on 127.0.0.1. The real `openai` SDK talks to it
// in the integration and browser suites. Behaviour is picked from the last user message:
//   [[error]]  → 500 with an upstream error message     [[slow]] → answers after 5 s
//   [[long-title]] → a first line longer than 50 characters
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

export function startFakeOpenAIServer(port = 0) {
  const requests = [];
  const server = createServer((req, res) => {
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
      requests.push({ model: json.model, authorization: req.headers.authorization, system, user, at: Date.now() });
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
