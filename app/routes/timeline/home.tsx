import { Page, PageHeading } from "~/components/page";

export const meta = () => [{ title: "Timeline · StoryWeave" }];

export default function Screen() {
  return (
    <Page>
      <PageHeading>Timeline</PageHeading>
    </Page>
  );
}
