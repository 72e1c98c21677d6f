import { describe, expect, it } from "vitest";
import { limits } from "../../db/domain/validation";
import { api } from "../../worker/api";
import { orphanKeys } from "../../worker/api/api-reference";
import { call } from "./helpers";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** Hono's `/api/timelines/:id` as OpenAPI's `/api/timelines/{id}`. */
const openApiPath = (path: string) => (path.length > 1 ? path.replace(/\/$/, "") : path).replace(/:(\w+)/g, "{$1}");

async function openApi() {
  const res = await call("GET", "/api/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toContain("application/json");
  return res.json;
}

describe("GET /api/openapi.json", () => {
  it("is an OpenAPI 3.1 document: info, paths under /api, every operation with responses", async () => {
    const doc = await openApi();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBe("StoryWeave API");
    expect(typeof doc.info.version).toBe("string");
    const paths = Object.keys(doc.paths);
    expect(paths.length).toBeGreaterThan(50);
    for (const path of paths) {
      expect(path).toMatch(/^\/api\//);
      const item = doc.paths[path];
      for (const [method, op] of Object.entries<any>(item)) {
        expect(METHODS).toContain(method);
        expect(op.summary).toMatch(/\w/);
        expect(op.tags).toHaveLength(1);
        const success = Object.entries<any>(op.responses).filter(([status]) => Number(status) < 400);
        expect(success).toHaveLength(1);
        expect(success[0][1].description).toMatch(/\w/);
        // Every {param} in the path is declared as a required path parameter.
        for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
          expect(op.parameters.find((p: any) => p.in === "path" && p.name === name)?.required).toBe(true);
        }
        // Every reference points at a component that exists.
        for (const ref of JSON.stringify(op).match(/#\/components\/[\w/]+/g) ?? []) {
          const [, , kind, name] = ref.split("/");
          expect(doc.components[kind]?.[name], ref).toBeTruthy();
        }
      }
    }
  });

  it("has an entry for every route the API registers, and none for a route it does not", async () => {
    const doc = await openApi();
    const registered = new Set(api.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`));
    const documented = new Set(
      Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`)),
    );
    expect([...registered].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((d) => !registered.has(d))).toEqual([]);
    // Every body schema and detail is attached to a row (a typo in its key would drop it silently).
    expect(orphanKeys).toEqual([]);
  });

  it("request bodies are the zod schemas the handlers validate with", async () => {
    const doc = await openApi();
    const create = doc.paths["/api/timelines"].post.requestBody.content["application/json"].schema;
    expect(create.type).toBe("object");
    expect(create.required).toEqual(["title"]);
    expect(create.properties.title).toMatchObject({ type: "string", minLength: 1, maxLength: limits.timelineTitle });
    const register = doc.paths["/api/auth/register"].post.requestBody.content["application/json"].schema;
    expect(Object.keys(register.properties).sort()).toEqual(["email", "name", "password"]);
    const share = doc.paths["/api/timelines/{id}/share"].post.requestBody.content["application/json"].schema;
    expect(share.properties.role.enum).toEqual(["viewer", "collaborator"]);
    expect(doc.paths["/api/timelines/{id}/events"].get.parameters.find((p: any) => p.name === "order").schema.enum).toEqual([
      "position",
      "chronological",
    ]);
  });

  it("lists the Idempotency-Key header of the creates the outbox may send twice, its replay header and its errors", async () => {
    const doc = await openApi();
    for (const path of ["/api/timelines/{id}/events", "/api/timelines/{id}/chapters", "/api/timelines/{id}/plotlines"]) {
      const create = doc.paths[path].post;
      const header = create.parameters.find((p: any) => p.in === "header" && p.name === "Idempotency-Key");
      expect(header, path).toMatchObject({ required: false, schema: { type: "string", minLength: 8, maxLength: 100 } });
      expect(new RegExp(header.schema.pattern).test("abcd-1234_XYZ")).toBe(true);
      expect(new RegExp(header.schema.pattern).test("short")).toBe(false);
      expect(new RegExp(header.schema.pattern).test("has space 1234")).toBe(false);
      expect(create.responses["201"].headers["Idempotent-Replayed"].schema).toEqual({ type: "string", enum: ["true"] });
      expect(create.responses["400"].description).toContain('Idempotency-Key must be 8 to 100 characters: letters, digits, "-" or "_"');
      expect(create.responses["409"].description).toContain("This Idempotency-Key was already used for a different request");
      expect(create.responses["409"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    }
    // Only those: other creates take no such header.
    const others = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) =>
      Object.entries<any>(item)
        .filter(([, op]) => op.parameters?.some((p: any) => p.name === "Idempotency-Key"))
        .map(([method]) => `${method} ${path}`),
    );
    expect(others.sort()).toEqual([
      "post /api/timelines/{id}/chapters",
      "post /api/timelines/{id}/events",
      "post /api/timelines/{id}/plotlines",
    ]);
    const page = await call("GET", "/api/docs");
    expect(page.text).toContain("Header: <code>Idempotency-Key?</code>");
  });

  it("documents the error shape the API really answers with", async () => {
    const doc = await openApi();
    const schema = doc.components.schemas.Error;
    expect(schema.required).toEqual(["error"]);
    expect(schema.properties.error.type).toBe("string");
    expect(doc.paths["/api/timelines"].post.responses["400"]).toEqual({ $ref: "#/components/responses/E400" });
    expect(doc.paths["/api/timelines"].post.responses["401"]).toEqual({ $ref: "#/components/responses/E401" });
    expect(doc.paths["/api/admin/users"].get.responses["403"]).toEqual({ $ref: "#/components/responses/E403" });

    const anonymous = await call("POST", "/api/timelines", { body: { title: "x" } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ error: "Not authenticated" });
    const tooLong = await call("POST", "/api/auth/register", { body: { name: "", email: "nope", password: "x" } });
    expect(tooLong.status).toBe(400);
    expect(Object.keys(tooLong.json)).toEqual(["error"]);
    expect(typeof tooLong.json.error).toBe("string");
  });
});

describe("GET /api/docs", () => {
  it("is a readable HTML page listing every operation, with no script", async () => {
    const [doc, page] = [await openApi(), await call("GET", "/api/docs")];
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toContain("text/html");
    expect(page.text).toContain("<h1>StoryWeave API</h1>");
    expect(page.text).not.toMatch(/<script/i);
    expect(page.text).toContain('href="/api/openapi.json"');
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(item)) {
        expect(page.text).toContain(`${method.toUpperCase()}</span></td><td><code>${path}</code>`);
      }
    }
  });
});
