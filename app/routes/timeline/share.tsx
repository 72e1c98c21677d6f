import { redirect } from "react-router";
import type { Route } from "./+types/share";

// SPEC.md §2: /timeline/{id}/share is linked from the Share action; its screen is the share dialog
// on the timeline itself.
export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/timeline/${params.id}?share=1`);
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
