/**
 * Counts the D1 statements and round trips a request makes, for `npm run bench` (enabled with the
 * SERVER_TIMING var; reported in a Server-Timing header). A batch is one round trip of N statements.
 */
export type D1Meter = { statements: number; roundTrips: number };

export function meterD1(d1: D1Database): { db: D1Database; meter: D1Meter } {
  const meter: D1Meter = { statements: 0, roundTrips: 0 };
  const executing = new Set(["first", "all", "run", "raw"]);
  // workerd's batch() needs its own statement objects, not proxies.
  const unwrap = new WeakMap<object, D1PreparedStatement>();
  const wrapStatement = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = new Proxy(stmt, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args));
        if (typeof prop === "string" && executing.has(prop)) {
          return (...args: unknown[]) => {
            meter.statements += 1;
            meter.roundTrips += 1;
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
    unwrap.set(wrapped, stmt);
    return wrapped;
  };
  const db = new Proxy(d1, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "prepare") {
        return (query: string) => wrapStatement(target.prepare(query));
      }
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          meter.statements += statements.length;
          meter.roundTrips += 1;
          return target.batch(statements.map((s) => unwrap.get(s) ?? s));
        };
      }
      return value.bind(target);
    },
  });
  return { db, meter };
}

export function serverTiming(meter: D1Meter, startedAt: number) {
  return `d1;desc="statements=${meter.statements} roundtrips=${meter.roundTrips}", total;dur=${Date.now() - startedAt}`;
}
