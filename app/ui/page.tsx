import type { ReactNode } from "react";
import { cn } from "~/lib/cn";

export function Page({ children, className }: { children: ReactNode; className?: string }) {
  // Bottom padding keeps the last content clear of the floating help button.
  return <main className={cn("mx-auto w-full max-w-7xl px-4 pt-8 pb-24", className)}>{children}</main>;
}

export function PageHeading({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="font-serif text-3xl font-bold">{children}</h1>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
