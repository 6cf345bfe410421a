/** Money out rules both the back office and the server use (docs/payouts.md, decision 107). */

/** An event's money becomes withdrawable this many hours after its date ends. */
export const RELEASE_HOURS = 72;
