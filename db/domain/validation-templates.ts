import { z } from "zod";

// What the templates and structure endpoints accept.

export const templateLimits = { name: 100, id: 40 } as const;

export const templateMessages = {
  templateId: "Template must be a template id or null",
  notFound: "Template not found",
  nameRequired: "Template name is required",
  nameTooLong: `Template name must be ${templateLimits.name} characters or less`,
  timelineId: "Timeline must be a timeline id",
  builtIn: "Built-in templates cannot be deleted",
} as const;

/** A built-in's id ("save-the-cat") or a writer's own ("u-12"). */
export const templateIdField = z
  .string({ error: templateMessages.templateId })
  .trim()
  .min(1, templateMessages.templateId)
  .max(templateLimits.id, templateMessages.templateId);

export const StructureSchema = z.object({ templateId: templateIdField.nullable() });

export const CreateTemplateSchema = z.object({
  timelineId: z
    .number({ error: templateMessages.timelineId })
    .int(templateMessages.timelineId)
    .positive(templateMessages.timelineId)
    .max(Number.MAX_SAFE_INTEGER, templateMessages.timelineId),
  name: z
    .string({ error: templateMessages.nameRequired })
    .trim()
    .min(1, templateMessages.nameRequired)
    .max(templateLimits.name, templateMessages.nameTooLong),
});
export type CreateTemplate = z.infer<typeof CreateTemplateSchema>;

/** An own template's id as the API shows it. */
export const ownTemplateId = (id: number) => `u-${id}`;
/** The row id behind an own template's id; null for anything else. */
export function ownTemplateRow(id: string): number | null {
  const match = /^u-([1-9]\d{0,15})$/.exec(id);
  return match ? Number(match[1]) : null;
}
