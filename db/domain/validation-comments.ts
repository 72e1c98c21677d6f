import { z } from "zod";

// What the comments endpoints accept.

export const commentLimits = { body: 5000, quote: 1000, anchorPosition: 400 } as const;

export const commentMessages = {
  empty: "Comment cannot be empty",
  tooLong: `Comment must be ${commentLimits.body.toLocaleString("en-US")} characters or less`,
  quoteTooLong: `Quoted text must be ${commentLimits.quote.toLocaleString("en-US")} characters or less`,
  anchor: "Anchor must be the selected text's start, end and quote",
  threadId: "Thread must be a comment id",
  replyAnchor: "A reply belongs to its thread and has no anchor of its own",
  resolved: "Resolved must be true or false",
  nothing: "Nothing to update",
  notFound: "Comment not found",
  noViewerComments: "The owner has turned off comments for viewers",
  editOwn: "You can only edit your own comments",
  deleteOwn: "Only the comment's author or the timeline's owner can delete it",
  viewersCanComment: "Viewers can comment must be true or false",
} as const;

const body = z
  .string({ error: commentMessages.empty })
  .trim()
  .min(1, commentMessages.empty)
  .max(commentLimits.body, commentMessages.tooLong);

/** A Yjs relative position as the client encodes it: base64, size-limited; the server never decodes it. */
const position = z
  .string({ error: commentMessages.anchor })
  .min(1, commentMessages.anchor)
  .max(commentLimits.anchorPosition, commentMessages.anchor)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, commentMessages.anchor);

export const CommentAnchorSchema = z.object(
  {
    from: position,
    to: position,
    quote: z.string({ error: commentMessages.anchor }).max(commentLimits.quote, commentMessages.quoteTooLong),
  },
  { error: commentMessages.anchor },
);
export type CommentAnchor = z.infer<typeof CommentAnchorSchema>;

export const CreateCommentSchema = z
  .object({
    body,
    anchor: CommentAnchorSchema.nullable().optional(),
    threadId: z
      .number({ error: commentMessages.threadId })
      .int(commentMessages.threadId)
      .positive(commentMessages.threadId)
      .max(Number.MAX_SAFE_INTEGER, commentMessages.threadId)
      .nullable()
      .optional(),
  })
  .refine((v) => !(v.threadId && v.anchor), { message: commentMessages.replyAnchor });
export type CreateComment = z.infer<typeof CreateCommentSchema>;

export const UpdateCommentSchema = z
  .object({
    body: body.optional(),
    resolved: z.boolean({ error: commentMessages.resolved }).optional(),
  })
  .refine((v) => v.body !== undefined || v.resolved !== undefined, { message: commentMessages.nothing });
export type UpdateComment = z.infer<typeof UpdateCommentSchema>;

export const viewersCanCommentField = z.boolean({ error: commentMessages.viewersCanComment });
