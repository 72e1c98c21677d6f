import type { Db } from "../../db/client";
import type { User } from "../../db/schema";
import type { DocRemover, LiveDocs, RoomNotifier } from "../lib/room";
import type { NotifyMail } from "./notify-mail";

/**
 * What a service that writes a timeline's data needs: the database and the timeline's room, which
 * it tells exactly once per write. The API and the loaders pass the same shape. `docs`
 * reaches an event's live shared text: a text edit while writers are in it merges there. `mail` sends the
 * notifications' emails (none without it). `locale` is the writer's (Accept-Language): story dates are read and
 * written in words in it.
 */
export type Deps = { db: Db; room: RoomNotifier; docs?: LiveDocs; mail?: NotifyMail; locale?: string };

/** The author of a change as collaborators see it. */
export const authorOf = (user: Pick<User, "id" | "name" | "email">) => ({ userId: user.id, userName: user.name ?? user.email });

/**
 * A write that may add or remove attachments' bytes also needs the R2 bucket (`env.FILES`); one that deletes
 * events removes their shared docs' storage with `removeDocs`.
 */
export type FileDeps = Deps & { files: R2Bucket; removeDocs?: DocRemover };

/** The author a live doc records for a REST edit: id and display name only. */
export const docAuthor = (user: Pick<User, "id" | "name" | "email">) => ({ id: user.id, name: user.name ?? user.email, email: user.email });
