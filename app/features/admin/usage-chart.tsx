/** Completed AI uses per day: a small bar chart with the same numbers in a table for screen readers. */
export function UsageChart({ days, total, caption }: { days: { day: string; count: number }[]; total: number; caption: string }) {
  const max = Math.max(1, ...days.map((d) => d.count));
  const label = (day: string) =>
    new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
  return (
    <figure className="space-y-2" data-testid="ai-usage-chart">
      <figcaption className="text-sm text-stone-700">
        {caption}: <strong>{total}</strong>
      </figcaption>
      <div aria-hidden="true" className="flex h-24 items-end gap-0.5 border-b border-stone-300">
        {days.map((d) => (
          <div
            key={d.day}
            title={`${label(d.day)}: ${d.count}`}
            className={d.count ? "flex-1 rounded-t-sm bg-brand-500" : "flex-1 bg-stone-100"}
            style={{ height: `${d.count ? Math.max(6, (d.count / max) * 100) : 2}%` }}
          />
        ))}
      </div>
      {/* A table box ignores overflow:hidden, so the visually hidden wrapper is a div (no sideways scroll on phones). */}
      <div className="sr-only">
        <table>
          <caption>{caption} per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">AI uses</th>
            </tr>
          </thead>
          <tbody>
            {days
              .filter((d) => d.count > 0)
              .map((d) => (
                <tr key={d.day}>
                  <td>{label(d.day)}</td>
                  <td>{d.count}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
