import type { ReactNode } from "react";
import { Form, useSubmit } from "react-router";
import { releaseDevice } from "~/features/offline/service-worker";
import { forgetAllLocalDocs } from "~/lib/offline-docs";

/**
 * Logout: the scenes' copies this browser kept for the co-writing editor (and their unsaved-edit markers) and the
 * service worker's copies of pages are deleted first, so nothing of the writer's stays on a shared device; then
 * the form is sent as usual.
 */
export function LogoutForm({ className, children }: { className?: string; children: ReactNode }) {
  const submit = useSubmit();
  return (
    <Form
      method="post"
      action="/auth/logout"
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        // Once more after the page has gone: an editor open until then may mark its edits while its socket closes.
        void releaseDevice()
          .finally(() => submit(form))
          .finally(() => forgetAllLocalDocs());
      }}
    >
      {children}
    </Form>
  );
}
