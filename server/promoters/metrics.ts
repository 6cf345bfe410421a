import type { Ctx } from "#server/context";
import { requireUserId } from "#server/accounts/users";

export interface ReferralMetric {
  eventName: string;
  totalCount: number;
  totalAccreditedCount: number;
  tickets: { name: string; count: number; accredited: number }[];
}

export interface ReferralMetricsFilter {
  organizationId?: string | number | null;
  eventId?: string | number | null;
  eventDateId?: string | number | null;
  userId?: string | number | null;
  fromDate?: string | null;
  toDate?: string | null;
}

/**
 * Sales and accreditations through the signed-in promoter's referral link,
 * per event. Orders record their referral nick, but promoters are not yet
 * members of an organization and the door does not redeem yet, so nothing
 * says whose sales a nick's are: the answer is an honest empty list until
 * the promoters issue (groups and attribution) lands.
 */
export async function getMetricReferralSalesByUser(ctx: Ctx, _filter: ReferralMetricsFilter): Promise<ReferralMetric[]> {
  requireUserId(ctx);
  return [];
}
