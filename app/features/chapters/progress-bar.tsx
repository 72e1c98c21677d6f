import { cn } from "~/lib/cn";
import { digits } from "~/lib/digits";

/** 'x of y words' as a bar (role=progressbar; the bar stops at full, the numbers do not). */
export function ProgressBar({ label, value, max, className }: { label: string; value: number; max: number; className?: string }) {
  const share = max > 0 ? Math.min(1, value / max) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      aria-valuetext={`${digits(value)} of ${digits(max)} words`}
      className={cn("h-2 overflow-hidden rounded-full bg-stone-200", className)}
    >
      <div className="h-full rounded-full bg-brand-600" style={{ width: `${Math.round(share * 100)}%` }} />
    </div>
  );
}
