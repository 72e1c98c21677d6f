import { z } from "zod";

// Scene status and tasks (DESIGN.md §12 'Deadlines, sessions and tasks'). Zod-free names live in ./task-rules.
import { taskLimits, taskMessages } from "./task-rules";

export { sceneStatusMessage, sceneStatuses, type SceneStatus, taskLimits, taskMessages } from "./task-rules";

const text = z.string({ error: taskMessages.empty }).trim().min(1, taskMessages.empty).max(taskLimits.text, taskMessages.tooLong);

const assigneeId = z
  .number({ error: taskMessages.assigneeId })
  .int(taskMessages.assigneeId)
  .positive(taskMessages.assigneeId)
  .max(Number.MAX_SAFE_INTEGER, taskMessages.assigneeId)
  .nullable();

export const CreateTaskSchema = z.strictObject(
  { text, assigneeId: assigneeId.optional() },
  { error: (issue) => (issue.code === "unrecognized_keys" ? taskMessages.unknownField : taskMessages.empty) },
);
export type CreateTask = z.infer<typeof CreateTaskSchema>;

export const UpdateTaskSchema = z
  .strictObject(
    { text: text.optional(), done: z.boolean({ error: taskMessages.done }).optional(), assigneeId: assigneeId.optional() },
    { error: (issue) => (issue.code === "unrecognized_keys" ? taskMessages.unknownField : taskMessages.nothing) },
  )
  .refine((v) => v.text !== undefined || v.done !== undefined || v.assigneeId !== undefined, { message: taskMessages.nothing });
export type UpdateTask = z.infer<typeof UpdateTaskSchema>;
