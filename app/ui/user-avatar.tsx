import { cn } from "~/lib/cn";
import { initials, type PublicUser } from "~/lib/user";

export function UserAvatar({ user, className }: { user: Pick<PublicUser, "name" | "email" | "avatar">; className?: string }) {
  const base = "inline-flex h-9 w-9 shrink-0 items-center justify-center overflow-hidden rounded-full";
  if (user.avatar) {
    return <img src={user.avatar} alt="" className={cn(base, "object-cover", className)} />;
  }
  return (
    <span aria-hidden="true" className={cn(base, "bg-brand-600 text-sm font-semibold text-white", className)}>
      {initials(user)}
    </span>
  );
}
