import type { MemberRole } from "@common/merchant.ts";

/** Who may use a screen, in words: "owners and admins", "the owner". */
export function whoMay(roles: readonly MemberRole[]): string {
  const plural: Record<MemberRole, string> = { owner: "owners", admin: "admins", staff: "staff" };
  const names = roles.map((r) => (r === "owner" && roles.length === 1 ? "the owner" : plural[r]));
  if (names.length <= 1) return names[0] ?? "nobody";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The sentence a member reads on a screen their role cannot use: "Only owners and admins can see the audit log." */
export function roleNoticeSentence(roles: readonly MemberRole[], what: string): string {
  const who = whoMay(roles);
  return `Only ${who} can ${what}.`;
}

export function mayUse(role: MemberRole | null | undefined, roles: readonly MemberRole[]): boolean {
  return role != null && roles.includes(role);
}
