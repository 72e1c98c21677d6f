import { useEffect, useRef, useState } from "react";
import type * as Y from "yjs";
import type { Session } from "~/features/co-writing/doc-session";
import { Input } from "~/ui/input";
import { DocFields, applyPlainText } from "../../../db/domain/rich-text";

/** The title as plain text in the doc: my typing goes in as a minimal diff, others' keeps my caret in place. */
export function TitleInput({ id, session }: { id: string; session: Session }) {
  const ytext = session.ydoc.getText(DocFields.title);
  const [value, setValue] = useState(() => ytext.toString());
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setValue(ytext.toString());
    const observer = (e: Y.YTextEvent) => {
      const next = ytext.toString();
      const input = ref.current;
      if (!input || input.value === next) return setValue(next);
      const map = (at: number) => {
        let pos = 0;
        let out = at;
        for (const op of e.delta) {
          if (op.retain) pos += op.retain;
          else if (typeof op.insert === "string") {
            if (pos < at) out += op.insert.length;
            pos += op.insert.length;
          } else if (op.delete) {
            if (pos < at) out -= Math.min(op.delete, at - pos);
          }
        }
        return out;
      };
      const focused = document.activeElement === input;
      const start = map(input.selectionStart ?? 0);
      const end = map(input.selectionEnd ?? 0);
      input.value = next;
      setValue(next);
      if (focused) input.setSelectionRange(start, end);
    };
    ytext.observe(observer);
    return () => ytext.unobserve(observer);
  }, [ytext]);
  return (
    <Input
      ref={ref}
      id={id}
      value={value}
      maxLength={200}
      disabled={!session.ready}
      onChange={(e) => {
        setValue(e.target.value);
        applyPlainText(ytext, e.target.value);
      }}
    />
  );
}
