import { redirect } from "react-router";
import type { Route } from "./+types/share";

// /timeline/{id}/share is linked from the Share action; its screen is the share dialog
// on the timeline itself.
export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/timeline/${params.id}?share=1`);
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
