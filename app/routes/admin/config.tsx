import { Link } from "react-router";
import { AiKeyForm } from "~/features/admin/ai-key-form";
import { Page, PageHeading } from "~/ui/page";
import { Card, CardContent, CardHeader, CardTitle } from "~/ui/card";

export const meta = () => [{ title: "OpenAI Configuration · StoryWeave" }];

export default function Screen() {
  return (
    <Page className="max-w-3xl">
      <PageHeading>OpenAI Configuration</PageHeading>
      <div className="space-y-6">
        <Card>
          <CardHeader>
            <CardTitle>Set up the AI assistant</CardTitle>
          </CardHeader>
          <CardContent>
            <ol className="list-decimal space-y-2 pl-5 text-sm text-stone-700">
              <li>
                Create an API key in your OpenAI account (
                <a className="text-brand-700 underline" href="https://platform.openai.com/api-keys" target="_blank" rel="noreferrer">
                  platform.openai.com/api-keys
                </a>
                ), or use a key from any OpenAI-compatible server.
              </li>
              <li>Paste it below and save. Writer's Unblock and the Story Assistant use it at once.</li>
              <li>
                For a deployment you can instead set the secret with{" "}
                <code className="rounded bg-stone-100 px-1">wrangler secret put OPENAI_API_KEY</code>
                (it takes precedence over a saved key). <code className="rounded bg-stone-100 px-1">OPENAI_BASE_URL</code> and{" "}
                <code className="rounded bg-stone-100 px-1">OPENAI_MODEL</code> in wrangler.toml choose the server and model.
              </li>
              <li>
                Check it from the{" "}
                <Link className="text-brand-700 underline" to="/api-test">
                  API test page
                </Link>
                .
              </li>
            </ol>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>API key</CardTitle>
          </CardHeader>
          <CardContent>
            <AiKeyForm />
          </CardContent>
        </Card>
      </div>
    </Page>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
