import { useCallback, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { errorMessage } from "~/lib/client";
import { type ActionToast, errorToast, showToast } from "~/lib/toast";

export type MutationOptions<Args extends unknown[], Result> = {
  /** The toast after success, or none. */
  success?: ActionToast | ((result: Result, ...args: Args) => ActionToast | undefined);
  /**
   * A string: the 'Error' toast shows the server's message when it gave one, else this fallback.
   * A function: decides for itself; a returned string is shown as the 'Error' toast as is.
   */
  error: string | ((error: unknown, ...args: Args) => unknown);
  /** Reload the route's loader data after success (default true); false when the screen navigates or holds the truth. */
  revalidate?: boolean | ((result: Result, ...args: Args) => boolean);
  onSuccess?: (result: Result, ...args: Args) => void;
};

export type MutationOutcome<Result> = { ok: true; data: Result } | { ok: false; error: unknown };

/**
 * The one way a screen changes something on the server: pending state, the product's toasts and revalidation.
 * `run` never throws; it tells how it went.
 */
export function useMutation<Args extends unknown[], Result>(
  fn: (...args: Args) => Promise<Result>,
  options: MutationOptions<Args, Result>,
) {
  const [pending, setPending] = useState(false);
  const revalidator = useRevalidator();
  // The latest fn/options without making `run` change identity on every render.
  const latest = useRef({ fn, options, revalidator });
  latest.current = { fn, options, revalidator };

  const run = useCallback(async (...args: Args): Promise<MutationOutcome<Result>> => {
    const { fn, options, revalidator } = latest.current;
    setPending(true);
    try {
      const data = await fn(...args);
      options.onSuccess?.(data, ...args);
      const toast = typeof options.success === "function" ? options.success(data, ...args) : options.success;
      if (toast) showToast(toast);
      const revalidate = typeof options.revalidate === "function" ? options.revalidate(data, ...args) : (options.revalidate ?? true);
      if (revalidate) await revalidator.revalidate();
      return { ok: true, data };
    } catch (error) {
      if (typeof options.error === "string") errorToast(errorMessage(error, options.error));
      else {
        const message = options.error(error, ...args);
        if (typeof message === "string") errorToast(message);
      }
      return { ok: false, error };
    } finally {
      setPending(false);
    }
  }, []);

  return { run, pending };
}
