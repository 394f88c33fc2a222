import type { Db } from "@/db/client";
import type { StaffRole } from "@/lib/staff/current-staff";
import { createUser, type CreateUserResult } from "@/lib/staff/create-user";
import { readDemoLogin } from "@/lib/staff/demo-login";

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
