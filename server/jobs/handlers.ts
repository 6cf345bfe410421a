import { ANONYMOUS } from "#server/context";
import { expireOrder, EXPIRE_ORDER_JOB } from "#server/orders/orders";
import type { JobHandlers } from "./queue";

/** Every job kind the app runs, with its handler. */
export const jobHandlers: JobHandlers = {
  [EXPIRE_ORDER_JOB]: async (payload, { db, now }) => {
    const orderId = String(payload.orderId ?? "");
    const result = await expireOrder({ db, actor: ANONYMOUS, now }, orderId);
    // Ran a little early (clocks): retry later, with backoff.
    if (result === "not-due") throw new Error("La reserva todavía no venció");
  },
};
