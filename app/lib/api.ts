/** Browser-side JSON calls to our API (cookie session; same origin). SPEC.md §7/§8 error texts. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: any,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export async function api<T = unknown>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(path, {
    method: init.method ?? "GET",
    credentials: "same-origin",
    headers: init.body !== undefined ? { "Content-Type": "application/json" } : undefined,
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    if (res.status === 401) throw new ApiError(401, `Authentication failed (401) for ${path}`, body);
    throw new ApiError(res.status, body?.error ?? `${res.status}: ${text || res.statusText}`, body);
  }
  return body as T;
}

/** The server's message when it gave one (e.g. the free-plan limit), else SPEC.md's fallback. */
export function errorMessage(error: unknown, fallback: string) {
  if (error instanceof ApiError && error.body?.error) return String(error.body.error);
  return fallback;
}
