import type { AttachmentView } from "../../../worker/services/attachment-store";

// The upload itself, loaded when a writer first attaches or drops a file on a card.

/** Sends one file with upload progress (fetch has none); resolves with the server's JSON or its error message. */
export function send(url: string, file: File, headers: Record<string, string>, onProgress: (percent: number) => void) {
  return new Promise<AttachmentView>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: { error?: string } | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status === 201 && body) resolve(body as AttachmentView);
      else reject(new Error(body?.error ?? "Failed to upload file"));
    };
    xhr.onerror = () => reject(new Error("Failed to upload file"));
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}
