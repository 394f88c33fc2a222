import { handlers } from "@/lib/staff/next-auth";

// Auth.js's own endpoints (csrf, session, signin, signout, callback), with its CSRF check on POSTs.
// The sign-in and sign-out forms use server actions instead (Next's origin check): decision 0018.
export const { GET, POST } = handlers;

export const dynamic = "force-dynamic";
