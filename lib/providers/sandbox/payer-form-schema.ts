import { z } from "zod";

/** The form of the payment page: which button the payer pressed. */
export const sandboxPayerFormSchema = z.object({ action: z.enum(["pay", "underpay", "fail"]) });
