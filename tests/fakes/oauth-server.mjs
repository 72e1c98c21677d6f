// A fake OAuth 2.0 provider on 127.0.0.1 standing in for GitHub and Google, spoken to by the real
// arctic client in the Worker. It auto-approves: the authorize endpoint redirects straight back with
// a code and the state. The token endpoint checks what a real provider checks: the client secret (HTTP
// Basic), the single-use code, the redirect_uri, and the PKCE code_verifier against the S256
// code_challenge. User endpoints: GitHub's /user and /user/emails, Google's /v1/userinfo.
//
// Which profile signs in: `fake_profile` (JSON) on the authorize URL, else the provider's current
// default, which tests set with POST /__profile/{github|google} (JSON body). A profile is
// { id, name, email, emailVerified, login? }. `fake_deny=1` on the authorize URL answers access_denied.
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";

export const FAKE_OAUTH_CLIENTS = {
  github: { id: "fake-github-client", secret: "fake-github-secret" },
  google: { id: "fake-google-client", secret: "fake-google-secret" },
};

const AUTHORIZE = { "/login/oauth/authorize": "github", "/o/oauth2/v2/auth": "google" };
const TOKEN = { "/login/oauth/access_token": "github", "/token": "google" };

const base64url = (buf) => buf.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export function startFakeOAuthServer(port = 0) {
  const profiles = {
    github: { id: 1001, login: "octo-writer", name: "Octo Writer", email: "octo@example.test", emailVerified: true },
    google: { id: "google-2002", name: "Gwen Google", email: "gwen@example.test", emailVerified: true },
  };
  const codes = new Map();
  const tokens = new Map();
  /** Every token request and its outcome, for tests that want to see what the Worker sent. */
  const exchanges = [];

  const json = (res, status, body) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  const readBody = (req) =>
    new Promise((resolve) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => resolve(body));
    });
  const bearer = (req) => tokens.get((req.headers.authorization ?? "").replace(/^Bearer\s+/i, ""));

  const server = createServer(async (req, res) => {
    // No keep-alive: a test's next request could meet a socket the server is closing (ECONNRESET).
    res.setHeader("Connection", "close");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname;
    const q = url.searchParams;

    if (req.method === "POST" && path.startsWith("/__profile/")) {
      const provider = path.slice("/__profile/".length);
      if (!(provider in profiles)) return json(res, 404, { error: "unknown provider" });
      try {
        profiles[provider] = JSON.parse(await readBody(req));
        return json(res, 200, profiles[provider]);
      } catch {
        return json(res, 400, { error: "invalid JSON" });
      }
    }

    if (req.method === "GET" && AUTHORIZE[path]) {
      const provider = AUTHORIZE[path];
      const redirectUri = q.get("redirect_uri");
      if (q.get("response_type") !== "code" || q.get("client_id") !== FAKE_OAUTH_CLIENTS[provider].id || !redirectUri) {
        return json(res, 400, { error: "invalid_request" });
      }
      if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
        return json(res, 400, { error: "invalid_request", error_description: "PKCE (S256) required" });
      }
      const back = new URL(redirectUri);
      if (q.get("state")) back.searchParams.set("state", q.get("state"));
      if (q.get("fake_deny") === "1") {
        back.searchParams.set("error", "access_denied");
      } else {
        let profile = profiles[provider];
        if (q.get("fake_profile")) {
          try {
            profile = JSON.parse(q.get("fake_profile"));
          } catch {
            return json(res, 400, { error: "fake_profile is not JSON" });
          }
        }
        const code = base64url(randomBytes(18));
        codes.set(code, { provider, redirectUri, challenge: q.get("code_challenge"), profile, scope: q.get("scope") ?? "" });
        back.searchParams.set("code", code);
      }
      res.writeHead(302, { Location: back.toString() }).end();
      return;
    }

    if (req.method === "POST" && TOKEN[path]) {
      const provider = TOKEN[path];
      const form = new URLSearchParams(await readBody(req));
      const [clientId, secret] = Buffer.from((req.headers.authorization ?? "").replace(/^Basic\s+/i, ""), "base64")
        .toString()
        .split(":");
      const grant = codes.get(form.get("code") ?? "");
      let error = null;
      if (clientId !== FAKE_OAUTH_CLIENTS[provider].id || secret !== FAKE_OAUTH_CLIENTS[provider].secret) error = "invalid_client";
      else if (form.get("grant_type") !== "authorization_code" || !grant || grant.provider !== provider) error = "invalid_grant";
      else if (form.get("redirect_uri") !== grant.redirectUri) error = "invalid_grant";
      else if (
        base64url(
          createHash("sha256")
            .update(form.get("code_verifier") ?? "")
            .digest(),
        ) !== grant.challenge
      )
        error = "invalid_grant";
      // A code is spent by its first exchange, right or wrong (as the real providers do).
      if (grant) codes.delete(form.get("code"));
      exchanges.push({ provider, ok: !error, error });
      if (error) {
        // GitHub answers a refused exchange with 200 and an error body; Google with 400/401.
        if (provider === "github") return json(res, 200, { error: error === "invalid_grant" ? "bad_verification_code" : error });
        return json(res, error === "invalid_client" ? 401 : 400, { error });
      }
      const accessToken = `fake-${provider}-${base64url(randomBytes(18))}`;
      tokens.set(accessToken, { provider, profile: grant.profile });
      return json(res, 200, { access_token: accessToken, token_type: "bearer", scope: grant.scope });
    }

    if (req.method === "GET" && (path === "/user" || path === "/user/emails")) {
      const token = bearer(req);
      if (token?.provider !== "github") return json(res, 401, { message: "Bad credentials" });
      const p = token.profile;
      if (path === "/user") return json(res, 200, { id: p.id, login: p.login ?? `user${p.id}`, name: p.name ?? null, email: null });
      const emails = p.email ? [{ email: p.email, primary: true, verified: Boolean(p.emailVerified), visibility: "private" }] : [];
      // A second, verified but not primary, address: the Worker must use the primary one.
      emails.push({ email: `${p.login ?? p.id}@users.noreply.example.test`, primary: false, verified: true, visibility: null });
      return json(res, 200, emails);
    }

    if (req.method === "GET" && path === "/v1/userinfo") {
      const token = bearer(req);
      if (token?.provider !== "google") return json(res, 401, { error: "invalid_token" });
      const p = token.profile;
      return json(res, 200, { sub: String(p.id), name: p.name, email: p.email, email_verified: Boolean(p.emailVerified) });
    }

    json(res, 404, { error: "not found" });
  });

  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const url = `http://127.0.0.1:${server.address().port}`;
      resolve({ server, url, port: server.address().port, profiles, exchanges });
    });
  });
}

/** The Worker's variables that point both providers at a fake running at `url`. */
export function fakeOAuthVars(url, providers = ["github", "google"]) {
  const vars = {};
  if (providers.includes("github")) {
    Object.assign(vars, {
      GITHUB_CLIENT_ID: FAKE_OAUTH_CLIENTS.github.id,
      GITHUB_CLIENT_SECRET: FAKE_OAUTH_CLIENTS.github.secret,
      GITHUB_OAUTH_BASE: url,
      GITHUB_API_BASE: url,
    });
  }
  if (providers.includes("google")) {
    Object.assign(vars, {
      GOOGLE_CLIENT_ID: FAKE_OAUTH_CLIENTS.google.id,
      GOOGLE_CLIENT_SECRET: FAKE_OAUTH_CLIENTS.google.secret,
      GOOGLE_AUTH_URL: `${url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GOOGLE_USERINFO_URL: `${url}/v1/userinfo`,
    });
  }
  return vars;
}
