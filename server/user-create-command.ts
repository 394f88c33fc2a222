import type { Db } from "@/db/client";
import type { StaffRole } from "@/lib/staff/current-staff";
import { createUser, type CreateUserResult } from "@/lib/staff/create-user";
import { readDemoLogin } from "@/lib/staff/demo-login";
import { disableUser, enableUser, listUsers, removeUser } from "@/lib/staff/manage-users";

/** `npx kassa user create`: createUser, its result as the CLI's JSON object and text (README, Command line). */
export async function userCreateCommand(
  db: Db,
  input: { email: string; password: string; businessId: string | null; role: StaffRole },
): Promise<{ json: ReturnType<typeof userJson>; text: string }> {
  const result = await createUser(db, input);
  return { json: userJson(result), text: userText(result) };
}

function userJson(r: CreateUserResult) {
  return {
    id: r.userId,
    email: r.email,
    business_id: r.businessId,
    role: r.role,
    admin: r.isAdmin,
    user_created: r.userCreated,
    membership: r.membership,
  };
}

function userText(r: CreateUserResult): string {
  const who = r.userCreated ? `Created user ${r.email} (${r.userId})` : `User ${r.email} (${r.userId}) already existed; password unchanged`;
  const what =
    r.role === "admin"
      ? "service support (admin): may open every business"
      : {
          created: `now ${r.role} of ${r.businessId}`,
          role_changed: `role in ${r.businessId} changed to ${r.role}`,
          unchanged: `already ${r.role} of ${r.businessId}`,
          none: "",
        }[r.membership];
  return `${who}: ${what}.\nSign in at /dashboard/sign-in.`;
}

/** `npx kassa demo login`: the demo sign-in `npm start` prints. */
export async function demoLoginCommand(db: Db): Promise<{ json: { email: string; password: string; business_id: string }; text: string }> {
  const demo = await readDemoLogin(db);
  return {
    json: { email: demo.email, password: demo.password, business_id: demo.businessId },
    text: `Demo login (${demo.businessId}): ${demo.email}  ${demo.password}`,
  };
}

/** `npx kassa user list [--business ID]`. */
export async function userListCommand(db: Db, input: { businessId?: string }) {
  const data = await listUsers(db, input);
  const text = data.length
    ? data
        .map((u) => {
          const roles = u.admin ? ["admin"] : u.memberships.map((m) => `${m.role} of ${m.business_id}`);
          return `${u.id}  ${u.email}  ${roles.join(", ") || "no business"}${u.disabled ? "  (disabled)" : ""}`;
        })
        .join("\n")
    : "No users yet.";
  return { json: { data }, text };
}

/** `npx kassa user disable|enable --email E`. */
export async function userDisableCommand(db: Db, input: { email: string; enable: boolean }) {
  if (input.enable) {
    const user = await enableUser(db, input);
    return { json: { id: user.id, email: user.email, disabled: false }, text: `${user.email} is enabled again: they can sign in with their password.` };
  }
  const user = await disableUser(db, input);
  return {
    json: { id: user.id, email: user.email, disabled: true, sessions_ended: user.sessionsEnded },
    text: `${user.email} is disabled${user.alreadyDisabled ? " (it already was)" : ""}: they cannot sign in, and ${user.sessionsEnded} open session(s) ended.`,
  };
}

/** `npx kassa user remove --email E [--business ID]`. */
export async function userRemoveCommand(db: Db, input: { email: string; businessId: string | null }) {
  const removed = await removeUser(db, input);
  return {
    json: { id: removed.id, email: removed.email, removed_from: removed.removedFrom, disabled: !input.businessId },
    text: input.businessId
      ? `${removed.email} is no longer a member of ${input.businessId}; their sessions ended.`
      : `${removed.email} is removed from ${removed.removedFrom.length} business(es) and disabled; their sessions ended.`,
  };
}
