import type { ReactNode } from "react";
import { cn } from "~/lib/cn";

export function Page({ children, className, oneOfflineNote }: { children: ReactNode; className?: string; oneOfflineNote?: boolean }) {
  // Bottom padding keeps the last content clear of the floating help button. `oneOfflineNote`: the screen places
  // one visible 'You're offline' itself (OfflineNote); its locked controls' own notes are not drawn (app.css).
  return (
    <main data-offline-notes={oneOfflineNote ? "once" : undefined} className={cn("mx-auto w-full max-w-7xl px-4 pt-8 pb-24", className)}>
      {children}
    </main>
  );
}

export function PageHeading({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="font-serif text-3xl font-bold">{children}</h1>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
