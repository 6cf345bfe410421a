import { builder } from "./builder";
import "./accounts";
import "./events";
import "./orders";
import "./tickets";
import "./coupons";
import "./refunds";
import "./bank-transfers";
import "./payments";
import "./ledger";
import "./uploads";
import "./two-factor";
import "./door";
import "./team";
import "./invitations";
import "./menu";
import "./withdrawals";

export const schema = builder.toSchema({ sortSchema: true });
