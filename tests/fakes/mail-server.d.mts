import type { Server } from "node:http";
export function startFakeMailServer(port: number): Promise<Server>;
