import { parseWithZod } from "@conform-to/zod/v4";
import type { Ctx } from "#server/context";
import { getCheckoutQuestions } from "#server/orders/checkout";
import { payerInfoSchema } from "#app/components/checkout/schema";

/*
 * The event's questions for a payer form that does not start from the event
 * page's cart — a resale ticket (/reventa/{id}) or a waiting-list offer
 * (/lista-de-espera/oferta/{id}): its custom fields and, when the event asks
 * for one holder per ticket, one holder row per unit. The same schema and
 * form (PayerInfoFields) as the checkout's payer page; the domain checks it all again.
 */

export interface PayerQuestions {
  customFields: Awaited<ReturnType<typeof getCheckoutQuestions>>["customFields"];
  /** Holder rows (0: the payer holds the tickets). */
  holders: number;
  /** What each holder row is for ("General"). */
  holderLabels: string[];
}

/** The questions for `units` tickets, each labelled with its ticket type's name. */
export async function payerQuestionsFor(ctx: Ctx, eventId: string, unitLabels: string[]): Promise<PayerQuestions> {
  const questions = await getCheckoutQuestions(ctx, eventId);
  return {
    customFields: questions.customFields,
    holders: questions.oneHolderPerTicket ? unitLabels.length : 0,
    holderLabels: questions.oneHolderPerTicket ? unitLabels : [],
  };
}

/** The posted payer form checked against those questions, and which names are inputs of it (for the domain's messages). */
export async function parsePayerForm(request: Request, questions: PayerQuestions) {
  const submission = parseWithZod(await request.formData(), { schema: payerInfoSchema({ customFields: questions.customFields, holders: questions.holders }) });
  const posted = new Set(Object.keys(submission.payload ?? {}));
  const isField = (name: string) => posted.has(name) || name.startsWith("attendees[") || name.startsWith("customFields.");
  return { submission, isField };
}
