// A fake Stripe API on 127.0.0.1 that the real `stripe` SDK talks to (checkout sessions, retrieve,
// subscription cancel), plus a fake hosted checkout page: "Pay" completes the session and redirects
// to its success_url, as Stripe does. Test-only controls: POST /__complete/{id}, GET /__state.
import { createServer } from "node:http";

let counter = 0;
const id = (prefix) => `${prefix}_test_${Date.now().toString(36)}${(counter++).toString(36)}`;
const now = () => Math.floor(Date.now() / 1000);
const MONTH = 30 * 24 * 3600;

export function startFakeStripeServer(port = 0) {
  const sessions = new Map();
  const subscriptions = new Map();
  const requests = [];
  let base = "";

  const json = (res, status, body) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  const stripeError = (res, status, message, type = "invalid_request_error") => json(res, status, { error: { message, type } });

  function complete(session) {
    if (session.status === "complete") return session;
    const customer = session.customer ?? id("cus");
    const subscriptionId = id("sub");
    const start = now();
    subscriptions.set(subscriptionId, {
      id: subscriptionId,
      object: "subscription",
      customer,
      status: "active",
      start_date: start,
      items: {
        object: "list",
        data: [{ id: id("si"), object: "subscription_item", current_period_start: start, current_period_end: start + MONTH }],
      },
    });
    Object.assign(session, { status: "complete", payment_status: "paid", customer, subscription: subscriptionId });
    return session;
  }

  function withExpansions(session, expand) {
    if (expand.includes("subscription") && typeof session.subscription === "string") {
      return { ...session, subscription: subscriptions.get(session.subscription) ?? session.subscription };
    }
    return session;
  }

  const server = createServer((req, res) => {
    // No keep-alive: a test's next request could meet a socket the server is closing (ECONNRESET).
    res.setHeader("Connection", "close");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const form = new URLSearchParams(raw);
      const path = url.pathname;

      // Hosted checkout page (what the writer sees in the new window).
      const page = path.match(/^\/checkout\/([\w]+)$/);
      if (req.method === "GET" && page) {
        const session = sessions.get(page[1]);
        if (!session) return res.writeHead(404).end("Unknown checkout session");
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(`<!doctype html>
<html lang="en"><head><title>Fake Stripe Checkout</title></head>
<body style="font-family:sans-serif;max-width:28rem;margin:4rem auto">
<h1>Fake Stripe Checkout</h1><p>StoryWeave Premium — $9.99 per month</p>
<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay $9.99</button></form>
<p><a href="${session.cancel_url}">Cancel</a></p></body></html>`);
        return;
      }
      const pay = path.match(/^\/checkout\/([\w]+)\/pay$/);
      if (req.method === "POST" && pay) {
        const session = sessions.get(pay[1]);
        if (!session) return res.writeHead(404).end("Unknown checkout session");
        complete(session);
        res.writeHead(303, { Location: session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id) }).end();
        return;
      }
      const done = path.match(/^\/__complete\/([\w]+)$/);
      if (req.method === "POST" && done) {
        const session = sessions.get(done[1]);
        return session ? json(res, 200, complete(session)) : json(res, 404, {});
      }
      if (req.method === "GET" && path === "/__state") {
        return json(res, 200, { sessions: [...sessions.values()], subscriptions: [...subscriptions.values()], requests });
      }

      // The API the SDK calls.
      const auth = req.headers.authorization ?? "";
      requests.push({ method: req.method, path, auth });
      if (!/^Bearer sk_(test|live)_/.test(auth)) return stripeError(res, 401, "Invalid API Key provided", "authentication_error");

      if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const session = {
          id: id("cs"),
          object: "checkout.session",
          mode: form.get("mode"),
          client_reference_id: form.get("client_reference_id"),
          customer: form.get("customer"),
          customer_email: form.get("customer_email"),
          success_url: form.get("success_url"),
          cancel_url: form.get("cancel_url"),
          amount_total: Number(form.get("line_items[0][price_data][unit_amount]") ?? 0),
          currency: form.get("line_items[0][price_data][currency]"),
          status: "open",
          payment_status: "unpaid",
          subscription: null,
          metadata: { userId: form.get("metadata[userId]") },
        };
        if (session.mode !== "subscription" || !session.success_url || !session.cancel_url) {
          return stripeError(res, 400, "Missing required param: mode, success_url or cancel_url.");
        }
        session.url = `${base}/checkout/${session.id}`;
        sessions.set(session.id, session);
        return json(res, 200, session);
      }
      const getSession = path.match(/^\/v1\/checkout\/sessions\/([\w]+)$/);
      if (req.method === "GET" && getSession) {
        const session = sessions.get(getSession[1]);
        if (!session) return stripeError(res, 404, `No such checkout.session: '${getSession[1]}'`);
        return json(res, 200, withExpansions(session, url.searchParams.getAll("expand[]").concat(url.searchParams.getAll("expand[0]"))));
      }
      const sub = path.match(/^\/v1\/subscriptions\/([\w]+)$/);
      if (sub && (req.method === "DELETE" || req.method === "GET")) {
        const subscription = subscriptions.get(sub[1]);
        if (!subscription) return stripeError(res, 404, `No such subscription: '${sub[1]}'`);
        if (req.method === "DELETE") Object.assign(subscription, { status: "canceled", canceled_at: now() });
        return json(res, 200, subscription);
      }
      return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${path}).`);
    });
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      base = `http://127.0.0.1:${server.address().port}`;
      resolve({ server, url: base, port: server.address().port, sessions, subscriptions });
    });
  });
}
