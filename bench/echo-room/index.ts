// The floor for `npm run bench:realtime`: a bare partyserver room that relays every message to the
// other connections, with no authentication, validation or presence. Not part of the product.
import { type Connection, Server, routePartykitRequest } from "partyserver";

// partyserver types `env` as the product's Cloudflare.Env; this Worker only has its own binding.
type EchoEnv = Cloudflare.Env & { EchoRoom: DurableObjectNamespace<EchoRoom> };

export class EchoRoom extends Server<EchoEnv> {
  static options = { hibernate: true };

  onMessage(connection: Connection, message: string | ArrayBuffer) {
    this.broadcast(message, [connection.id]);
  }
}

export default {
  async fetch(request: Request, env: EchoEnv) {
    return (await routePartykitRequest(request, env)) ?? new Response("Not found", { status: 404 });
  },
} satisfies ExportedHandler<EchoEnv>;
