import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  index("routes/index.tsx"),
  layout("routes/auth/layout.tsx", [
    route("auth/login", "routes/auth/login.tsx"),
    route("auth/register", "routes/auth/register.tsx"),
    route("auth/forgot-password", "routes/auth/forgot-password.tsx"),
    route("auth/reset-password", "routes/auth/reset-password.tsx"),
  ]),
  route("auth/logout", "routes/auth/logout.tsx"),
  // Outside the auth layout: a signed-in writer opens the link too.
  route("auth/verify-email", "routes/auth/verify-email.tsx"),
  // A reader link's reading view: no account.
  route("read/:code", "routes/read.tsx"),
  layout("routes/protected-layout.tsx", [
    route("timeline", "routes/timeline/home.tsx"),
    // One module for a timeline, opened by its id or by a share link (shared.tsx re-exports detail.tsx).
    route("timeline/shared/:shareCode", "routes/timeline/shared.tsx"),
    route("timeline/:id", "routes/timeline/detail.tsx"),
    route("timeline/:id/share", "routes/timeline/share.tsx"),
    route("timeline/:id/print", "routes/timeline/print.tsx"),
    route("timeline/:id/manuscript", "routes/timeline/manuscript.tsx"),
    route("writers-unblock", "routes/writers-unblock.tsx"),
    route("api-test", "routes/api-test.tsx"),
    route("account", "routes/account.tsx"),
    route("trash", "routes/trash.tsx"),
    route("series/:id", "routes/series.tsx"),
    route("notifications", "routes/notifications.tsx"),
    route("upgrade", "routes/upgrade.tsx"),
    layout("routes/admin/layout.tsx", [route("admin", "routes/admin/dashboard.tsx"), route("admin/config", "routes/admin/config.tsx")]),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
