import { useRef } from "react";

/**
 * `value`, or the one from the last render when it holds the same JSON: a loader's reload brings new arrays
 * and objects for the same data, and passing them on would render every component that reads them again.
 */
export function useSameValue<T>(value: T): T {
  const kept = useRef<{ value: T; json: string } | null>(null);
  const json = JSON.stringify(value);
  if (kept.current?.json !== json) kept.current = { value, json };
  return kept.current.value;
}
