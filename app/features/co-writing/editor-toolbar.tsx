import type { Editor } from "@tiptap/react";
import { Bold, Heading2, Italic, List, ListOrdered, Minus } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "~/ui/button";
import { cn } from "~/lib/cn";

/** The editor's formatting buttons (they keep the editor's focus and selection). */
export function Toolbar({ editor }: { editor: Editor }) {
  const can = editor.isEditable;
  const tool = (label: string, icon: ReactNode, active: boolean | undefined, run: () => void) => (
    <Button
      key={label}
      type="button"
      size="sm"
      variant="ghost"
      aria-label={label}
      title={label}
      aria-pressed={active}
      disabled={!can}
      className={cn("h-8 px-2", active && "bg-brand-100 text-brand-700")}
      onMouseDown={(e) => e.preventDefault()}
      onClick={run}
    >
      {icon}
    </Button>
  );
  return (
    <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1">
      {tool("Bold", <Bold aria-hidden="true" className="h-4 w-4" />, editor.isActive("bold"), () =>
        editor.chain().focus().toggleBold().run(),
      )}
      {tool("Italic", <Italic aria-hidden="true" className="h-4 w-4" />, editor.isActive("italic"), () =>
        editor.chain().focus().toggleItalic().run(),
      )}
      {tool("Heading", <Heading2 aria-hidden="true" className="h-4 w-4" />, editor.isActive("heading", { level: 2 }), () =>
        editor.chain().focus().toggleHeading({ level: 2 }).run(),
      )}
      {tool("Bullet list", <List aria-hidden="true" className="h-4 w-4" />, editor.isActive("bulletList"), () =>
        editor.chain().focus().toggleBulletList().run(),
      )}
      {tool("Numbered list", <ListOrdered aria-hidden="true" className="h-4 w-4" />, editor.isActive("orderedList"), () =>
        editor.chain().focus().toggleOrderedList().run(),
      )}
      {tool("Scene break", <Minus aria-hidden="true" className="h-4 w-4" />, undefined, () =>
        editor.chain().focus().setHorizontalRule().run(),
      )}
    </div>
  );
}
