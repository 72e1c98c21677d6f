// A `fetch` for the typed client (hono's per-call `fetch` option) that reports how much of the request body has
// been sent: fetch itself has no upload progress, XMLHttpRequest has. Used where a writer sends a big file (a
// book to import), so the dialog can say how far it is.

/** `sent` is 0–1 while the body goes out; `onSent` fires once it is all sent (the server is then reading it). */
export function fetchWithUploadProgress(onProgress: (sent: number) => void, onSent?: () => void): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const request = new Request(input, init);
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      for (const [name, value] of request.headers) xhr.setRequestHeader(name, value);
      xhr.withCredentials = request.credentials !== "omit";
      xhr.responseType = "arraybuffer";
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      };
      xhr.upload.onload = () => onSent?.();
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const at = line.indexOf(":");
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        // A 204/304 has no body a Response may carry.
        const body = xhr.status === 204 || xhr.status === 304 ? null : xhr.response;
        resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers }));
      };
      xhr.onerror = () => reject(new TypeError("Failed to fetch"));
      xhr.onabort = () => reject(new DOMException("The request was aborted", "AbortError"));
      init?.signal?.addEventListener("abort", () => xhr.abort());
      void request.arrayBuffer().then((body) => xhr.send(request.method === "GET" || request.method === "HEAD" ? null : body), reject);
    });
}
