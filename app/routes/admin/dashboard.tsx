import { Page, PageHeading } from "~/components/page";

export const meta = () => [{ title: "Admin Dashboard · StoryWeave" }];

export default function Screen() {
  return (
    <Page>
      <PageHeading>Admin Dashboard</PageHeading>
    </Page>
  );
}
