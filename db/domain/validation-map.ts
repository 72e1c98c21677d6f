import { z } from "zod";
import { MAP_NODE_KEY, mapLimits } from "./rules";

// What the mind map's endpoints accept.

// The mind map.
/** A color as the codex and the map store it: `#a1b2c3`, lower case. */
export const hexColor = z
  .string({ error: "Color must be a hex color like #a1b2c3" })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "Color must be a hex color like #a1b2c3")
  .transform((v) => v.toLowerCase());
const mapColor = hexColor;
const coordinate = z
  .number({ error: "Positions must be numbers" })
  .min(-mapLimits.coordinate, "Positions must be between -1,000,000 and 1,000,000")
  .max(mapLimits.coordinate, "Positions must be between -1,000,000 and 1,000,000");
const size = z
  .number({ error: "Sizes must be numbers" })
  .min(20, "Sizes must be between 20 and 10,000")
  .max(mapLimits.size, "Sizes must be between 20 and 10,000");
const nodeKey = z.string({ error: "Unknown map node" }).regex(MAP_NODE_KEY, "Unknown map node");
const groupKey = z
  .string({ error: "A node can only be placed in a group" })
  .regex(/^group-[1-9]\d{0,11}$/, "A node can only be placed in a group")
  .nullable();
const mapText = z
  .string({ error: "Text is required" })
  .trim()
  .min(1, "Text is required")
  .max(mapLimits.text, "Text must be 500 characters or less");
const edgeLabel = z.string({ error: "Label must be text" }).trim().max(mapLimits.label, "Label must be 60 characters or less");

export const MapPositionsSchema = z.object({
  positions: z
    .array(z.object({ node: nodeKey, x: coordinate, y: coordinate }, { error: "Each position needs a node, x and y" }), {
      error: "Positions must be a list",
    })
    .max(mapLimits.positions, "At most 2000 positions at once"),
});
export type MapPositions = z.infer<typeof MapPositionsSchema>;

export const CreateMapNodeSchema = z.object({
  kind: z.enum(["idea", "group"], { error: "Kind must be idea or group" }),
  text: mapText,
  x: coordinate,
  y: coordinate,
  color: mapColor.nullable().optional(),
  width: size.nullable().optional(),
  height: size.nullable().optional(),
  parentId: groupKey.optional(),
});
export type CreateMapNode = z.infer<typeof CreateMapNodeSchema>;

export const UpdateMapNodeSchema = z
  .object({
    text: mapText.optional(),
    x: coordinate.optional(),
    y: coordinate.optional(),
    color: mapColor.nullable().optional(),
    width: size.nullable().optional(),
    height: size.nullable().optional(),
    parentId: groupKey.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
export type UpdateMapNode = z.infer<typeof UpdateMapNodeSchema>;

export const CreateMapEdgeSchema = z.object({
  source: nodeKey,
  target: nodeKey,
  label: edgeLabel.optional(),
  color: mapColor.nullable().optional(),
});
export type CreateMapEdge = z.infer<typeof CreateMapEdgeSchema>;

export const UpdateMapEdgeSchema = z
  .object({ label: edgeLabel.optional(), color: mapColor.nullable().optional() })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
export type UpdateMapEdge = z.infer<typeof UpdateMapEdgeSchema>;
