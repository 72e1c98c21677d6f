import { type LayoutInput, type LayoutOutput, dagreLayout } from "./dagre-layout";

// The Map's automatic layout, off the main thread: one request in, its positions out.
export type LayoutRequest = { id: number; input: LayoutInput };
export type LayoutReply = { id: number; positions: LayoutOutput };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
  postMessage: (reply: LayoutReply) => void;
};

scope.onmessage = ({ data }) => {
  scope.postMessage({ id: data.id, positions: dagreLayout(data.input) });
};
