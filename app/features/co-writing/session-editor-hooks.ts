import Collaboration from "@tiptap/extension-collaboration";
import CollaborationCaret from "@tiptap/extension-collaboration-caret";
import type { Extensions } from "@tiptap/core";
import { useEditor } from "@tiptap/react";
import { useEffect, useRef } from "react";
import { caretColor } from "~/features/co-writing/co-editor-context";
import type { Session } from "~/features/co-writing/doc-session";
import { errorToast } from "~/lib/toast";
import { DocFields, richTextExtensions } from "../../../db/domain/rich-text";
import { AutoDirection } from "./auto-direction";

// The co-writing editor's wiring to its session: the Tiptap editor on the doc, the session's end.

/**
 * The Tiptap editor on the session's doc (with the others' carets), editable once the doc is ready. `options`: a
 * view's own extensions (the manuscript's smart quotes), the text's classes and name in place of the card's.
 */
export function useDocEditor(
  session: Session,
  contentId: string,
  user: { name: string; color: string },
  options?: { extensions?: Extensions; className?: string; label?: string },
) {
  const editor = useEditor(
    {
      extensions: [
        ...richTextExtensions(caretColor),
        AutoDirection,
        ...(options?.extensions ?? []),
        Collaboration.configure({ document: session.ydoc, field: DocFields.content }),
        CollaborationCaret.configure({ provider: session.provider, user }),
      ],
      editable: false,
      immediatelyRender: false,
      shouldRerenderOnTransaction: true,
      editorProps: {
        attributes: {
          id: contentId,
          role: "textbox",
          "aria-multiline": "true",
          "aria-label": options?.label ?? "Content",
          class:
            options?.className ??
            "co-editor-content min-h-32 rounded-md border border-stone-300 bg-white px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600",
        },
      },
    },
    [session],
  );
  useEffect(() => {
    if (editor && session.ready && !editor.isEditable) editor.setEditable(true);
  });
  useEffect(() => {
    if (editor && user.name) editor.commands.updateUser(user);
  }, [editor, user]);
  return editor;
}

/**
 * The session ended for good: closes the editor with a toast, unless my access ended (the editor then shows my
 * text). The room saying my access ended (`roomEnded`) ends the session too.
 */
export function useSessionEnd(session: Session, onClose: () => void, roomEnded: string | null) {
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (!session.ended || session.accessEnded) return;
    errorToast(session.ended);
    closeRef.current();
  }, [session.ended, session.accessEnded]);
  useEffect(() => {
    if (roomEnded) session.endAccess(roomEnded);
  }, [roomEnded, session]);
}
