import { Page, PageHeading } from "~/components/page";

export const meta = () => [{ title: "OpenAI Configuration · StoryWeave" }];

export default function Screen() {
  return (
    <Page>
      <PageHeading>OpenAI Configuration</PageHeading>
    </Page>
  );
}
