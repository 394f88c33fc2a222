import type { Staff, StaffRole } from "@/lib/staff/current-staff";

/**
 * Test support: a Staff as loadStaff builds it, without a sign-in. A member (`owner`/`manager`)
 * of `businessId` showing it; support (`admin`) showing `businessId` with `isAdmin`.
 */
export function staffFor(businessId: string, role: StaffRole, email = `${role}@example.com`): Staff {
  return {
    userId: `usr_test_${role}`,
    email,
    isAdmin: role === "admin",
    businessId,
    role,
    memberships: [{ businessId, businessName: "Test business", mode: "sandbox", role }],
  };
}
