import { builder } from "./builder";
import * as auth from "#server/accounts/auth";
import * as verification from "#server/accounts/email-verification";
import * as recovery from "#server/accounts/recovery";
import * as signInLink from "#server/accounts/sign-in-link";
import * as users from "#server/accounts/users";
import type { PublicUser } from "#server/accounts/users";
import type { Tokens } from "#server/auth/sessions";
import { getMetricReferralSalesByUser, type ReferralMetric } from "#server/promoters/metrics";

const UserType = builder.objectRef<PublicUser>("User").implement({
  description: "A person with an account. `current` returns the signed-in one.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false }),
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    email: t.exposeString("email", { nullable: false }),
    nickname: t.exposeString("nickname"),
    documentNumber: t.exposeString("documentNumber"),
    documentType: t.exposeString("documentType"),
    address: t.exposeString("address"),
    state: t.exposeString("state", { description: "Province code (AR-CF, AR-B…)." }),
    phoneNumber: t.exposeString("phoneNumber"),
    isOrganizer: t.exposeBoolean("isOrganizer", { nullable: false }),
    isAdmin: t.exposeBoolean("isAdmin", { nullable: false }),
    roles: t.exposeStringList("roles", { nullable: false }),
  }),
});

const TokensType = builder.objectRef<Tokens>("AuthTokens").implement({
  description: "A new sign-in. The same tokens also come back in the response headers x-access-token / x-refresh-token.",
  fields: (t) => ({
    accessToken: t.exposeString("accessToken", { nullable: false, description: "JWT (HS256), valid 15 minutes." }),
    refreshToken: t.exposeString("refreshToken", { nullable: false, description: "Opaque, valid 15 days, rotated on every use." }),
  }),
});

const UserSummary = builder
  .objectRef<{ id: string; email: string; firstName: string | null; lastName: string | null }>("UserSummary")
  .implement({
    fields: (t) => ({
      id: t.exposeID("id", { nullable: false }),
      email: t.exposeString("email", { nullable: false }),
      firstName: t.exposeString("firstName"),
      lastName: t.exposeString("lastName"),
    }),
  });

const UserList = builder
  .objectRef<{ users: { id: string; email: string; firstName: string | null; lastName: string | null }[]; total: number; page: number; limit: number }>(
    "OrganizationUserList",
  )
  .implement({
    fields: (t) => ({
      users: t.field({ type: [UserSummary], nullable: false, resolve: (p) => p.users }),
      total: t.exposeInt("total", { nullable: false }),
      page: t.exposeInt("page", { nullable: false }),
      limit: t.exposeInt("limit", { nullable: false }),
    }),
  });

const UserLookup = builder
  .objectRef<{ user: { id: string; phoneNumber: string | null }; fieldsToComplete: string[] }>("UserByEmail")
  .implement({
    fields: (t) => ({
      user: t.field({
        type: builder.objectRef<{ id: string; phoneNumber: string | null }>("UserContact").implement({
          fields: (u) => ({ id: u.exposeID("id", { nullable: false }), phoneNumber: u.exposeString("phoneNumber") }),
        }),
        resolve: (p) => p.user,
      }),
      fieldsToComplete: t.exposeStringList("fieldsToComplete", { nullable: false }),
    }),
  });

const NicknameOwner = builder.objectRef<{ firstName: string | null; lastName: string | null }>("NicknameOwner").implement({
  fields: (t) => ({ firstName: t.exposeString("firstName"), lastName: t.exposeString("lastName") }),
});

const EmailVerificationSent = builder.objectRef<{ emailTo: string; logEmailId: string }>("EmailVerificationSent").implement({
  fields: (t) => ({
    emailTo: t.exposeString("emailTo", { nullable: false }),
    logEmailId: t.exposeString("logEmailId", { nullable: false, description: "The entry in the email log (readable at /dev/correos when no SMTP is configured)." }),
  }),
});

const EmailVerificationResult = builder.objectRef<{ email: string; alreadyVerified: boolean; joinedOrders: number }>("EmailVerificationResult").implement({
  fields: (t) => ({
    email: t.exposeString("email", { nullable: false }),
    alreadyVerified: t.exposeBoolean("alreadyVerified", { nullable: false, description: "The email was verified before this link: nothing changed." }),
    joinedOrders: t.exposeInt("joinedOrders", { nullable: false, description: "Purchases made without an account with this email that now belong to the account." }),
  }),
});

const SignInLinkResult = builder
  .objectRef<{ userFound: boolean; emailTo: string; logEmailId: string }>("SignInLinkResult")
  .implement({
    fields: (t) => ({
      userFound: t.exposeBoolean("userFound", { nullable: false }),
      emailTo: t.exposeString("emailTo", { nullable: false }),
      logEmailId: t.exposeID("logEmailId", { nullable: false }),
    }),
  });

const ReferralTicketMetric = builder
  .objectRef<ReferralMetric["tickets"][number]>("ReferralTicketMetric")
  .implement({
    fields: (t) => ({
      name: t.exposeString("name", { nullable: false }),
      count: t.exposeInt("count", { nullable: false }),
      accredited: t.exposeInt("accredited", { nullable: false }),
    }),
  });

const ReferralMetricType = builder.objectRef<ReferralMetric>("ReferralMetric").implement({
  fields: (t) => ({
    eventName: t.exposeString("eventName", { nullable: false }),
    totalCount: t.exposeInt("totalCount", { nullable: false }),
    totalAccreditedCount: t.exposeInt("totalAccreditedCount", { nullable: false }),
    tickets: t.field({ type: [ReferralTicketMetric], nullable: false, resolve: (p) => p.tickets }),
  }),
});

const ReferralMetricsResult = builder
  .objectRef<{ metrics: ReferralMetric[]; user: PublicUser }>("ReferralSalesByUser")
  .implement({
    fields: (t) => ({
      metrics: t.field({ type: [ReferralMetricType], nullable: false, resolve: (p) => p.metrics }),
      user: t.field({ type: UserType, nullable: false, resolve: (p) => p.user }),
    }),
  });

const ReferralMetricsFilter = builder.inputType("ReferralMetricsFilter", {
  fields: (t) => ({
    organizationId: t.id(),
    eventId: t.id(),
    eventDateId: t.id(),
    userId: t.id(),
    fromDate: t.string({ description: "ISO date; empty for no lower bound." }),
    toDate: t.string(),
  }),
});

const OrganizationUsersInput = builder.inputType("FindUsersByOrganizationInput", {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    search: t.string(),
    page: t.int({ defaultValue: 0 }),
    limit: t.int({ defaultValue: 10 }),
  }),
});

/**
 * Every root field is nullable: when one field of a request fails, the others
 * still deliver their data next to the error (the spec's partial data).
 */
builder.queryFields((t) => ({
  current: t.field({
    description: "The signed-in user. UNAUTHENTICATED without valid tokens.",
    type: UserType,
    resolve: (_root, _args, { ctx }) => users.currentUser(ctx),
  }),
  getMetricReferralSalesByUser: t.field({
    description: "Referral sales and accreditations of the signed-in promoter, per event, plus that user.",
    type: ReferralMetricsResult,
    args: { input: t.arg({ type: ReferralMetricsFilter }) },
    resolve: async (_root, { input }, { ctx }) => ({
      metrics: await getMetricReferralSalesByUser(ctx, input ?? {}),
      user: await users.currentUser(ctx),
    }),
  }),
  findUsers: t.field({
    description: "People search (email, first or last name; 2+ characters, up to 20 results). Organizers, promoter leads and admins only.",
    type: [UserSummary],
    args: { text: t.arg.string({ required: true }) },
    resolve: (_root, { text }, { ctx }) => users.findUsers(ctx, text),
  }),
  findUsersByOrganization: t.field({
    description: "Members of an organization, paged (page from 0). Its members and admins only.",
    type: UserList,
    args: { input: t.arg({ type: OrganizationUsersInput, required: true }) },
    resolve: (_root, { input }, { ctx }) =>
      users.findUsersByOrganization(ctx, { organizationId: String(input.organizationId), search: input.search, page: input.page, limit: input.limit }),
  }),
  userByEmail: t.field({
    description: "An account's contact and the profile fields still missing. Only for that user themselves or an admin.",
    type: UserLookup,
    args: { email: t.arg.string({ required: true }) },
    resolve: (_root, { email }, { ctx }) => users.userByEmail(ctx, email),
  }),
  fetchUserByNickname: t.field({
    description: "Public: the name behind a referral nickname (case-insensitive). NOT_FOUND when nobody has it.",
    type: NicknameOwner,
    args: { nickname: t.arg.string({ required: true }) },
    resolve: (_root, { nickname }, { ctx }) => users.fetchUserByNickname(ctx, nickname),
  }),
}));

/** Every mutation that signs someone in hands the tokens back in the body and in headers/cookies. */
function signedIn<T extends Tokens>(context: { issueTokens(tokens: Tokens): void }, tokens: T): Tokens {
  context.issueTokens(tokens);
  return { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
}

builder.mutationFields((t) => ({
  login: t.field({
    description: "Signs in with email and password. A wrong password and an unknown email give the same error. Rate limited per email and per IP.",
    type: TokensType,
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, context) => signedIn(context, await auth.login(context.ctx, args)),
  }),
  impersonatedLogin: t.field({
    description: "Admins only: signs in as another user to help them. Audited.",
    type: TokensType,
    args: { email: t.arg.string({ required: true }) },
    resolve: async (_root, args, context) => signedIn(context, await auth.impersonatedLogin(context.ctx, args)),
  }),
  register: t.field({
    description: "Creates an account with a password and signs in.",
    type: TokensType,
    args: {
      firstName: t.arg.string({ required: true }),
      lastName: t.arg.string({ required: true }),
      email: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
    },
    resolve: async (_root, args, context) => signedIn(context, await auth.register(context.ctx, args)),
  }),
  logout: t.field({
    type: UserType,
    description:
      "Ends the sign-in of the tokens sent (the refresh token's and the access token's session): neither works afterwards. Returns who was signed in (null if nobody).",
    resolve: async (_root, _args, context) => {
      const user = await auth.logout(context.ctx, context.refreshToken);
      context.clearTokens();
      return user;
    },
  }),
  updateUser: t.field({
    type: UserType,
    description: "The signed-in user edits their own profile. Arguments left out keep their value; null clears an optional one.",
    args: {
      firstName: t.arg.string(),
      lastName: t.arg.string(),
      email: t.arg.string(),
      nickname: t.arg.string(),
      documentType: t.arg.string(),
      documentNumber: t.arg.string(),
      address: t.arg.string(),
      state: t.arg.string(),
      phoneNumber: t.arg.string(),
    },
    resolve: (_root, args, { ctx }) => users.updateUser(ctx, args),
  }),
  recoverPasswordCode: t.boolean({
    description: "Emails a 6-digit code (15 minutes, 5 tries) when the account exists. Always true. Rate limited per email and per IP.",
    args: { email: t.arg.string({ required: true }) },
    resolve: (_root, args, { ctx }) => recovery.recoverPasswordCode(ctx, args),
  }),
  recoverPassword: t.field({
    description: "Sets a new password with the emailed code, ends every other sign-in of the account, and signs in.",
    type: TokensType,
    args: {
      email: t.arg.string({ required: true }),
      code: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
    },
    resolve: async (_root, args, context) => signedIn(context, await recovery.recoverPassword(context.ctx, args)),
  }),
  createSignInLink: t.field({
    description: "Emails a one-time sign-in link (30 minutes). userFound says whether it signs in or leads to a sign-up. Rate limited per email and per IP.",
    type: SignInLinkResult,
    args: { email: t.arg.string({ required: true }), returnTo: t.arg.string() },
    resolve: (_root, args, { ctx }) => signInLink.createSignInLink(ctx, args),
  }),
  finishSignInFromLink: t.field({
    description: "Signs in the existing user a link was emailed to. The link works once.",
    type: TokensType,
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_root, args, context) => signedIn(context, await signInLink.finishSignInFromLink(context.ctx, args)),
  }),
  sendEmailVerification: t.field({
    description: "Emails the signed-in person a link (24 hours) that confirms their email. CONFLICT when it is already verified. Rate limited per email and per IP.",
    type: EmailVerificationSent,
    resolve: (_root, _args, { ctx }) => verification.sendEmailVerification(ctx),
  }),
  verifyEmail: t.field({
    description: "Marks the email verified with the emailed link's token and joins that email's purchases made without an account to the account, once. No session needed.",
    type: EmailVerificationResult,
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, { ctx }) => verification.verifyEmail(ctx, args),
  }),
  registerFromLink: t.field({
    description: "Creates the account for the email a link was sent to (no account yet) and signs in. The link works once.",
    type: TokensType,
    args: {
      token: t.arg.string({ required: true }),
      firstName: t.arg.string({ required: true }),
      lastName: t.arg.string({ required: true }),
    },
    resolve: async (_root, args, context) => signedIn(context, await signInLink.registerFromLink(context.ctx, args)),
  }),
}));
