import type { FastifyInstance } from "fastify";

type KnownRoute = { pattern: RegExp; methods: Set<string> };

/**
 * Remembers every registered path so an unmatched request can be told apart:
 * an unknown path (404) from a known path with the wrong method (405 with Allow).
 */
export function trackRoutes(app: FastifyInstance) {
  const routes = new Map<string, KnownRoute>();
  app.addHook("onRoute", (route) => {
    const key = route.url;
    const known = routes.get(key) ?? { pattern: pathPattern(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) known.methods.add(method);
    routes.set(key, known);
  });
  return {
    /** Every registered path with its methods (the fuzz test walks them all). */
    list(): { url: string; methods: string[] }[] {
      return [...routes].map(([url, route]) => ({ url, methods: [...route.methods] }));
    },
    allowedMethods(path: string): string[] {
      const allowed = new Set<string>();
      for (const route of routes.values()) {
        if (route.pattern.test(path)) for (const m of route.methods) allowed.add(m);
      }
      return [...allowed];
    },
  };
}

function pathPattern(url: string): RegExp {
  const source = url
    .split("/")
    .map((segment) => {
      if (segment === "*") return ".*";
      if (segment.startsWith(":")) return "[^/]+";
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${source}/?$`);
}
