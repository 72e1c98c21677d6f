import { Hono } from "hono";
import { z } from "zod";
import { type Operation, operations } from "./api-reference";
import type { ApiEnv } from "./context";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN, REPLAYED_HEADER, idempotencyMessages } from "./idempotency";

/**
 * GET /api/openapi.json: an OpenAPI 3.1 document built from the reference's rows (api-reference.ts) and the zod
 * schemas the handlers validate with (JSON Schema 2020-12 from `z.toJSONSchema`). GET /api/docs: the same rows as a
 * server-rendered page with no script.
 */

const errorText: Record<number, string> = {
  400: "Invalid input: the first broken rule, in the product's words",
  401: "Not authenticated (or wrong credentials)",
  403: "Not allowed (access level, admin only, cross-site request, unverified email)",
  404: "Not found (also for anything the caller may not see)",
  409: "Conflict: taken, or edited meanwhile (`current` holds the event as saved)",
  413: "Request body is too large (1 MB; 10 MB for an attachment)",
  415: "Unsupported file type",
  429: "Too many requests: `retryAfter` seconds (also in the Retry-After header)",
  502: "The provider (OpenAI, Stripe) failed",
  503: "Not configured (AI key, payments)",
};

/** The body as the client sends it (defaults optional); the document's dialect already says 2020-12. */
function jsonSchema(schema: z.ZodType) {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return rest;
}

/** The `Idempotency-Key` header of a create the outbox may send twice (worker/api/idempotency.ts). */
const idempotencyParameter = {
  name: IDEMPOTENCY_HEADER,
  in: "header",
  required: false,
  description:
    "A key made once per change (8 to 100 letters, digits, `-` or `_`). Sent again with the same body by the same " +
    "account within 24 hours, the first answer is repeated (with `Idempotent-Replayed: true`) and nothing is made twice.",
  schema: { type: "string", minLength: 8, maxLength: 100, pattern: IDEMPOTENCY_KEY_PATTERN.source },
};
const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

function operationObject(op: Operation) {
  const params = [
    ...[...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: name === "id" || name === "userId" ? { type: "integer", minimum: 1 } : { type: "string" },
    })),
    ...(op.query ?? []).map((q) => ({
      name: q.name,
      in: "query",
      required: false,
      description: q.description,
      schema: q.values ? { type: "string", enum: q.values } : { type: "string" },
    })),
    ...(op.idempotent ? [idempotencyParameter] : []),
  ];
  const okContent: Record<string, unknown> = { [op.okType ?? "application/json"]: {} };
  if (op.stream) okContent["text/event-stream"] = { schema: { $ref: "#/components/schemas/AiStreamEvent" } };
  const responses: Record<string, unknown> = {
    [op.ok]: { description: op.returns, ...(op.ok === 204 || op.ok === 302 ? {} : { content: okContent }) },
  };
  for (const code of op.errors) responses[code] = { $ref: `#/components/responses/E${code}` };
  if (op.idempotent) {
    Object.assign(responses[op.ok] as object, {
      headers: {
        [REPLAYED_HEADER]: {
          description: `\`true\` when this answer repeats the first one made for the same ${IDEMPOTENCY_HEADER}`,
          schema: { type: "string", enum: ["true"] },
        },
      },
    });
    responses[400] = {
      description: `${errorText[400]}; also '${idempotencyMessages.invalid}'`,
      content: errorContent,
    };
    responses[409] = {
      description: `'${idempotencyMessages.reused}' (the same key with another body or route), or '${idempotencyMessages.inProgress}' (with Retry-After: a first request with no answer after 15 s is taken over)`,
      content: errorContent,
    };
  }
  const body = op.body
    ? { required: true, content: { "application/json": { schema: jsonSchema(op.body) } } }
    : op.rawBody
      ? { required: true, content: Object.fromEntries(op.rawBody.map((type) => [type, {}])) }
      : undefined;
  return {
    tags: [op.tag],
    summary: op.summary,
    operationId: `${op.method}${op.path
      .replace(/^\/api/, "")
      .replace(/[{}]/g, "")
      .replace(/[^a-zA-Z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? "").toUpperCase())}`,
    security: op.auth === "session" || op.auth === "admin" ? [{ cookie: [] }, { bearer: [] }] : [],
    ...(op.auth === "admin" ? { "x-admin-only": true } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document, built from the rows and the zod schemas. */
export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    paths[op.path] ??= {};
    paths[op.path][op.method] = operationObject(op);
  }
  const codes = new Set(operations.flatMap((op) => op.errors));
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "StoryWeave API",
      version: "1.0.0",
      description:
        'Every answer is JSON unless noted. A failure is `{"error": "<message shown to the writer>"}`, sometimes with more ' +
        "fields (`retryAfter`, `current`, `success: false`). Writes from a browser must be same-origin. `?share=<code>` " +
        "acts through a share link with its access level.",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(operations.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        cookie: { type: "apiKey", in: "cookie", name: "sw_session", description: "`__Host-sw_session` over https" },
        bearer: { type: "http", scheme: "bearer", description: "The `token` from register or login" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: { type: "string", description: "A message safe to show to the writer" },
            retryAfter: { type: "integer", description: "Seconds to wait (429)" },
            current: { type: "object", description: "The event as saved (409 on an event edit)" },
            success: { type: "boolean", const: false },
          },
          additionalProperties: true,
        },
        AiStreamEvent: {
          description: 'Server-Sent Events `data:` lines: `{"delta"}` as the model writes, then `{"done": true, "result"}` or `{"error"}`',
          type: "object",
          properties: { delta: { type: "string" }, done: { type: "boolean" }, result: {}, error: { type: "string" } },
        },
      },
      responses: Object.fromEntries(
        [...codes]
          .sort((a, b) => a - b)
          .map((code) => [
            `E${code}`,
            {
              description: errorText[code] ?? "Error",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
            },
          ]),
      ),
    },
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const code = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, "<code>$1</code>");

function bodyFields(schema: z.ZodType) {
  const json = jsonSchema(schema) as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const props = Object.entries(json.properties ?? {});
  if (!props.length) return "JSON";
  return props
    .map(
      ([name, p]) =>
        `<code>${escapeHtml(name)}${json.required?.includes(name) ? "" : "?"}</code>${p.type ? `: ${escapeHtml(String(p.type))}` : ""}`,
    )
    .join(", ");
}

/** The readable page: every operation by tag, server-rendered, no script. */
export function apiDocsHtml() {
  const tags = [...new Set(operations.map((op) => op.tag))];
  const sections = tags
    .map((tag) => {
      const rows = operations
        .filter((op) => op.tag === tag)
        .map((op) => {
          const input = [
            op.body ? `Body: ${bodyFields(op.body)}` : op.rawBody ? `Body: ${op.rawBody.map(escapeHtml).join(", ")}` : "",
            op.query?.length ? `Query: ${op.query.map((q) => `<code>${escapeHtml(q.name)}</code>`).join(", ")}` : "",
            op.idempotent
              ? `Header: <code>${IDEMPOTENCY_HEADER}?</code> (a repeat answers the first result, with <code>${REPLAYED_HEADER}: true</code>)`
              : "",
          ]
            .filter(Boolean)
            .join("<br>");
          return `<tr><td><span class="m ${op.method}">${op.method.toUpperCase()}</span></td><td><code>${escapeHtml(op.path)}</code><div>${code(op.summary)}</div></td><td>${op.auth}</td><td>${input}</td><td>${op.ok}: ${code(op.returns)}<div class="e">${op.errors.join(", ")}</div></td></tr>`;
        })
        .join("");
      return `<h2>${escapeHtml(tag)}</h2><table><thead><tr><th>Method</th><th>Path</th><th>Auth</th><th>Input</th><th>Answer / errors</th></tr></thead><tbody>${rows}</tbody></table>`;
    })
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>StoryWeave API</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>
body{font:14px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:80rem;padding:0 1rem;color:#1f2937}
table{border-collapse:collapse;width:100%;margin-bottom:2rem}td,th{border-bottom:1px solid #e5e7eb;padding:.4rem;text-align:left;vertical-align:top}
code{font-size:13px}.m{font:600 12px monospace;padding:1px 4px;border-radius:3px;background:#e5e7eb}.get{background:#dbeafe}.post{background:#dcfce7}
.patch,.put{background:#fef9c3}.delete{background:#fee2e2}.e{color:#6b7280}
</style></head><body><h1>StoryWeave API</h1><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Errors are
<code>{"error": "message"}</code> with the status shown; 400 carries the first broken rule. Auth <em>session</em> is the session cookie or
<code>Authorization: Bearer &lt;token&gt;</code>.</p>${sections}</body></html>`;
}

export const openApiRoutes = new Hono<ApiEnv>()
  .get("/openapi.json", (c) => c.json(openApiDocument()))
  .get("/docs", (c) => c.html(apiDocsHtml()));
