import { FlaskConical } from "lucide-react";
import { useState } from "react";
import { Page, PageHeading } from "~/components/page";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { aiRequest, cut } from "~/lib/ai";
import { showToast } from "~/lib/toast";

export const meta = () => [{ title: "API Test · StoryWeave" }];

export default function Screen() {
  const [result, setResult] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  async function run() {
    setPending(true);
    try {
      const json = await aiRequest<{ success: boolean; error?: string }>("/api/test/openai");
      setResult(json);
      if (!json.success) showToast({ title: "Test request failed", description: cut(json.error ?? ""), variant: "destructive" });
    } catch (error) {
      setResult({ error: error instanceof Error ? error.message : String(error) });
      showToast({ title: "Failed to test OpenAI API", description: cut(String(error instanceof Error ? error.message : error)), variant: "destructive" });
    } finally {
      setPending(false);
    }
  }

  return (
    <Page className="max-w-3xl">
      <PageHeading>API Test</PageHeading>
      <p className="mb-4 text-sm text-stone-600">Sends a tiny request to the configured AI server and shows the raw answer.</p>
      <Button onClick={run} disabled={pending}>
        <FlaskConical aria-hidden="true" className="h-4 w-4" />
        {pending ? "Testing..." : "Test OpenAI API"}
      </Button>
      {result !== null ? (
        <Card className="mt-6">
          <CardContent className="pt-6">
            <pre data-testid="api-test-result" className="overflow-x-auto rounded-md bg-stone-900 p-4 text-xs text-stone-100">
              {JSON.stringify(result, null, 2)}
            </pre>
          </CardContent>
        </Card>
      ) : null}
    </Page>
  );
}
