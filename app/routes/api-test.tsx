import { Page, PageHeading } from "~/components/page";

export const meta = () => [{ title: "API Test · StoryWeave" }];

export default function Screen() {
  return (
    <Page>
      <PageHeading>API Test</PageHeading>
    </Page>
  );
}
