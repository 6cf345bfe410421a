import { data, redirect, unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { collectPart } from "./multipart.server";
import { FORM_STATUS, isFormError, pageErrorResponse } from "./domain-errors.server";
import { FORM_LIMITS, formRefusal } from "#server/http/request-guard";
import type { Ctx } from "#server/context";
import { hasRole } from "#server/context";
import type { MembershipRole } from "#server/db/schema";
import { GENERIC_ERROR, isDomainError, SAVE_ERROR, SAVE_SUCCESS } from "#server/errors";
import { MAX_IMAGE_BYTES, isStoredImageUrl, saveImage } from "#server/media/images";
import { getOrganizationForMember, listMyOrganizations } from "#server/organizations/organizations";
import { CAPABILITIES, roleAllows, type Capability } from "#server/organizations/permissions";
import { requireEventBySlug } from "#server/events/events";
import { withFlash } from "#app/lib/flash.server";
import { SecondFactorRequired } from "#server/accounts/two-factor";
import { requireUser } from "#app/lib/session.server";
import { filterQuery, fromSearchParams, type FilterState } from "#common/filters";
import type { Capabilities, FormReply } from "#app/components/backoffice/types";

/**
 * What every /organizacion loader and action shares: the signed-in user, the
 * global filter state read from the URL (decision 19) resolved
 * against the user's organizations, and the translation of domain errors
 * into pages (403/404) or form replies. No business rule lives here: the
 * domain functions check membership and capabilities themselves.
 */

export const POR_CREAR_PATH = "/organizacion/por-crear";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type BackofficeRole = MembershipRole | "platform-admin";

export function capabilitiesOf(role: BackofficeRole | null): Capabilities {
  const out = {} as Capabilities;
  for (const capability of Object.keys(CAPABILITIES) as Capability[]) {
    out[capability] = role === "platform-admin" || roleAllows(role, capability);
  }
  return out;
}

export async function requireBackoffice(request: Request, options: { allowNoOrganization?: boolean } = {}) {
  const { ctx, headers, user } = await requireUser(request);
  const url = new URL(request.url);
  const filters = fromSearchParams(url.searchParams, ctx.now);
  const organizations = await listMyOrganizations(ctx);

  let organization: { id: string; name: string; slug: string } | null = null;
  let role: BackofficeRole | null = null;
  const mine = organizations.find((o) => o.id === filters.organizationId);
  if (mine) {
    organization = { id: mine.id, name: mine.name, slug: mine.slug };
    role = mine.role;
  } else if (UUID.test(filters.organizationId)) {
    // Someone else's organization in the URL: the domain decides (403 for strangers, support for platform admins).
    const other = await guard(() => getOrganizationForMember(ctx, filters.organizationId));
    organization = { id: other.id, name: other.name, slug: other.slug };
    role = hasRole(ctx.actor, "admin") ? "platform-admin" : null;
  } else if (organizations[0]) {
    organization = { id: organizations[0].id, name: organizations[0].name, slug: organizations[0].slug };
    role = organizations[0].role;
  }

  if (!organization && !options.allowNoOrganization) throw redirect(POR_CREAR_PATH, { headers });

  const resolved: FilterState = { ...filters, organizationId: organization?.id ?? "" };
  // The default organization is implied: links only carry it when it is another one.
  const forLinks: FilterState = { ...resolved, organizationId: organization && organization.id !== organizations[0]?.id ? organization.id : "" };
  return {
    ctx,
    headers,
    user,
    filters: resolved,
    linkFilters: forLinks,
    organizations: organizations.map((o) => ({ id: o.id, name: o.name, slug: o.slug, role: o.role })),
    organization,
    role,
    can: capabilitiesOf(role),
    /** `?…` to append to back-office links so the filters travel with them. */
    query: (extra: Partial<FilterState> = {}, params: Record<string, string> = {}) =>
      filterQuery({ ...forLinks, ...extra, opts: { ...forLinks.opts, ...(extra.opts ?? {}) } }, ctx.now, params),
  };
}

export type Backoffice = Awaited<ReturnType<typeof requireBackoffice>>;

/** Like requireBackoffice, but the page is meaningless without an organization (and said capability). */
export async function requireOrganization(request: Request, capability?: Capability) {
  const backoffice = await requireBackoffice(request);
  const organization = backoffice.organization!;
  if (capability && !backoffice.can[capability]) throw forbiddenResponse();
  return { ...backoffice, organization };
}

/**
 * An event's own back-office page (`/organizacion/eventos/{slug}/…`): the organization's
 * session and the event, whose owner the domain checks against `capability`.
 */
export async function requireOrganizationEvent(request: Request, slug: string | undefined, capability?: Capability) {
  const bo = await requireOrganization(request);
  const event = await guard(() => requireEventBySlug(bo.ctx, slug ?? "", capability));
  return { bo, event };
}

/**
 * What moves money or power asks for the second factor (server/accounts/two-factor.ts):
 * the person goes to turn it on, or to confirm it and come back to `back`, with the reason
 * said. Null for any other error.
 */
export function secondFactorRedirect(error: unknown, back: string, headers: Headers): Response | null {
  if (!(error instanceof SecondFactorRequired)) return null;
  const to = error.reason === "SECOND_FACTOR_ENROL" ? "/cuenta/seguridad" : `/cuenta/verificacion?returnTo=${encodeURIComponent(back)}`;
  return redirect(to, { headers: withFlash(headers, { type: "error", message: error.message }) });
}

export function forbiddenResponse(message = "No tenés permiso para ver esta página.") {
  return data({ message }, { status: 403, statusText: "Forbidden" });
}

/**
 * Runs a domain call for a loader (or an action's authorization step): a
 * domain error becomes the page the person should see (403, 404, the forced
 * login), never a crash.
 */
export async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw errorResponse(error);
  }
}

/** A domain error as the page to show (app/lib/domain-errors.server.ts, the one mapping). */
export function errorResponse(error: unknown): unknown {
  return pageErrorResponse(error);
}

// ───────────────────────── Forms ─────────────────────────

/** A text part larger than this is cut (every text field has its own, smaller, domain limit). */
const MAX_TEXT_PART = 100_000;

export interface PostedForm {
  /** Text fields by name (the last value wins, as for Conform's single fields). */
  values: Record<string, string>;
  /** Non-empty files by name. Larger than MAX_IMAGE_BYTES ones are kept cut at one byte more, so the size check still fails. */
  files: Record<string, Uint8Array>;
}

const uploadHandler: UploadHandler = async (part) => {
  if (typeof part.filename === "string") {
    const bytes = await collectPart(part.data, MAX_IMAGE_BYTES + 1);
    if (!bytes.length) return null;
    return new File([bytes], part.filename || "archivo", { type: part.contentType });
  }
  return new TextDecoder().decode(await collectPart(part.data, MAX_TEXT_PART));
};

/** Reads an HTML form post, urlencoded or multipart (images). */
export async function readForm(request: Request): Promise<PostedForm> {
  const multipart = (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
  const formData = multipart ? await unstable_parseMultipartFormData(request, uploadHandler) : await request.formData();
  // The HTTP server already refused oversized or hostile urlencoded forms; multipart ones are checked here, by the same rule.
  const refusal = formRefusal([...formData.entries()].flatMap(([name, value]) => (typeof value === "string" ? [[name, value] as [string, string]] : [])));
  if (refusal) throw data({ message: refusal.message }, { status: refusal.status });
  const values: Record<string, string> = {};
  const files: Record<string, Uint8Array> = {};
  for (const [name, value] of formData.entries()) {
    if (typeof value === "string") values[name] = value;
    else if (value.size > 0) files[name] = new Uint8Array(await value.arrayBuffer());
  }
  return { values, files };
}

/**
 * Form names → the domain's input: `dates[0].startsAt` → `{ dates: [{ startsAt }] }`,
 * `a.b` → `{ a: { b } }`. Error keys from the domain (`dates.0.startsAt`)
 * map back to the same inputs through `fieldName` (app/components/backoffice/forms.tsx).
 */
export function formToObject(values: Record<string, string>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const path = parsePath(name);
    if (!path) continue;
    let node: Record<string | number, unknown> = root;
    for (const [i, segment] of path.entries()) {
      if (i === path.length - 1) {
        // A group's name used as a plain field too (`code` and `code[0].name`): the group stays, the plain value goes.
        if (node[segment] === undefined || typeof node[segment] !== "object") node[segment] = value;
        break;
      }
      const nextIsIndex = typeof path[i + 1] === "number";
      node[segment] ??= nextIsIndex ? [] : {};
      // A plain field then a group of the same name (`code` and `code[0].name`): the group wins, a form never sends both.
      if (typeof node[segment] !== "object") node[segment] = nextIsIndex ? [] : {};
      node = node[segment] as Record<string | number, unknown>;
    }
  }
  return compactArrays(root) as Record<string, unknown>;
}

function parsePath(name: string): (string | number)[] | null {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let match: RegExpExecArray | null;
  let consumed = "";
  while ((match = re.exec(name))) {
    if (match[1] !== undefined) {
      if (match[1] === "__proto__" || match[1] === "constructor" || match[1] === "prototype") return null;
      out.push(match[1]);
    } else {
      // Row indexes past the limit are dropped, not allocated (an array as long as the index).
      if (match[2].length > 4 || Number(match[2]) >= FORM_LIMITS.maxRows) return null;
      out.push(Number(match[2]));
    }
    consumed += match[0];
  }
  if (!out.length || consumed.length !== name.replace(/\./g, "").length) return null;
  return out;
}

function compactArrays(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compactArrays);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compactArrays(v)]));
  }
  return value;
}

/** Rows of a repeated group (`dates[0].…`, `dates[1].…`) present in the values, in order. */
export function rowIndexes(values: Record<string, string>, group: string): number[] {
  const found = new Set<number>();
  const re = new RegExp(`^${group}\\[(\\d+)\\]`);
  for (const name of Object.keys(values)) {
    const match = re.exec(name);
    if (match) found.add(Number(match[1]));
  }
  return [...found].sort((a, b) => a - b);
}

/** Removes row `index` of a group and renumbers the following ones, so names stay `group[0..n-1]`. */
export function removeRow(values: Record<string, string>, group: string, index: number): Record<string, string> {
  const out: Record<string, string> = {};
  const re = new RegExp(`^${group}\\[(\\d+)\\](.*)$`);
  const order = rowIndexes(values, group);
  for (const [name, value] of Object.entries(values)) {
    const match = re.exec(name);
    if (!match) {
      out[name] = value;
      continue;
    }
    const row = Number(match[1]);
    if (row === index) continue;
    out[`${group}[${order.indexOf(row) - (row > index ? 1 : 0)}]${match[2]}`] = value;
  }
  return out;
}

/** Renumbers a group's rows to 0..n-1 (after the browser sent, say, rows 0 and 2). */
export function renumberRows(values: Record<string, string>, group: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = new RegExp(`^${group}\\[(\\d+)\\](.*)$`);
  const order = rowIndexes(values, group);
  for (const [name, value] of Object.entries(values)) {
    const match = re.exec(name);
    out[match ? `${group}[${order.indexOf(Number(match[1]))}]${match[2]}` : name] = value;
  }
  return out;
}

/** Saves an uploaded image if one came with the form; its URL goes into `values[urlField]` so a re-rendered form keeps it. */
export async function acceptImageUpload(
  ctx: Ctx,
  form: PostedForm,
  fileField: string,
  urlField: string,
): Promise<{ values: Record<string, string>; errors: Record<string, string[]> }> {
  const values = { ...form.values };
  // Only URLs of our own uploads come back from the browser.
  if (values[urlField] && !isStoredImageUrl(values[urlField])) delete values[urlField];
  const bytes = form.files[fileField];
  if (!bytes) return { values, errors: {} };
  try {
    const image = await saveImage(ctx, bytes, fileField);
    values[urlField] = image.url;
    return { values, errors: {} };
  } catch (error) {
    if (isDomainError(error) && error.fieldErrors[fileField]) return { values, errors: { [fileField]: error.fieldErrors[fileField] } };
    throw error;
  }
}

/** Fields never sent back to the page. */
const HIDDEN_VALUES = new Set(["intent"]);

function echo(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([name]) => !HIDDEN_VALUES.has(name)));
}

/** A reply that only re-renders the form (added a row, removed one): no errors, no snackbar. */
export function formReply(values: Record<string, string>, extra: Partial<FormReply> = {}): FormReply {
  return { values: echo(values), errors: {}, formErrors: [], snackbar: null, target: null, ...extra };
}

/**
 * What an action answers when a domain call failed: the message next to each
 * field (keys as the domain gives them, `dates.0.endsAt`), the rest above the
 * form, and the save-error snackbar. Forbidden and not-found become pages.
 */
export function failedReply(
  error: unknown,
  values: Record<string, string>,
  options: {
    headers?: Headers;
    target?: string | null;
    extraErrors?: Record<string, string[]>;
    /** Which keys have an input of their own; the others go above the form. */
    fields?: (key: string) => boolean;
    /** Renames a domain key to the input's (e.g. `fields.0.options.1` → `fields.0.options`). */
    mapKey?: (key: string) => string;
  } = {},
) {
  // Not signed in, may not, not there: a page (the one mapping), not a message next to the form.
  if (isDomainError(error) && !isFormError(error)) {
    throw errorResponse(error);
  }
  // A page already decided (the 403/404 an inner failedReply threw, a redirect) reaching an outer catch: it goes on as it is, not as a 500.
  if (isDecidedResponse(error)) throw error;
  const errors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  let status = 400;
  let snackbar = SAVE_ERROR;
  const place = (domainKey: string, messages: string[]) => {
    const key = options.mapKey ? options.mapKey(domainKey) : domainKey;
    if (key === "_form" || (options.fields && !options.fields(key))) formErrors.push(...messages);
    else errors[key] = [...new Set([...(errors[key] ?? []), ...messages])];
  };
  for (const [key, messages] of Object.entries(options.extraErrors ?? {})) place(key, messages);
  if (isDomainError(error)) {
    for (const [key, messages] of Object.entries(error.fieldErrors)) place(key, messages);
    if (!Object.keys(error.fieldErrors).length) formErrors.push(error.message);
    if (error.code === "CONFLICT") snackbar = error.message;
    status = FORM_STATUS[error.code];
  } else if (error) {
    console.error(error);
    status = 500;
    snackbar = GENERIC_ERROR;
    formErrors.push(GENERIC_ERROR);
  }
  const reply: FormReply = {
    values: echo(values),
    errors,
    formErrors: [...new Set(formErrors)],
    snackbar: { type: "error", message: snackbar },
    target: options.target ?? null,
  };
  return data(reply, { status, headers: options.headers });
}

function isDecidedResponse(value: unknown): boolean {
  return value instanceof Response || (typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit");
}

/** After a successful save: back to a page, with the spec's success snackbar. */
export function savedRedirect(to: string, headers?: Headers, message: string = SAVE_SUCCESS) {
  return redirect(to, { headers: withFlash(headers, { type: "success", message }) });
}

export { SAVE_ERROR, SAVE_SUCCESS };

const STATUS_OF_INTENT = { pause: "paused", resume: "active", delete: "deleted" } as const;
type StatusOfIntent = (typeof STATUS_OF_INTENT)[keyof typeof STATUS_OF_INTENT];

/**
 * The action behind StatusActions (Pausar / Reanudar / Eliminar on a list
 * row): reads `intent` and the row's id, calls the domain's set…Status, and
 * comes back to the same list with a snackbar, or with the domain's message.
 */
export async function statusIntentAction(
  request: Request,
  options: {
    idName: string;
    /** "Elegí qué hacer con el cupón", when the intent is unknown. */
    unknownIntent: string;
    setStatus: (ctx: Backoffice["ctx"], input: { id: string; status: StatusOfIntent }) => Promise<unknown>;
    /** Snackbar per new status; the spec's save-success one by default. */
    messages?: Partial<Record<StatusOfIntent, string>>;
  },
) {
  const bo = await requireOrganization(request);
  const form = await readForm(request);
  const status = STATUS_OF_INTENT[form.values.intent as keyof typeof STATUS_OF_INTENT] as StatusOfIntent | undefined;
  if (!status) return failedReply(null, form.values, { headers: bo.headers, extraErrors: { _form: [options.unknownIntent] } });
  try {
    await options.setStatus(bo.ctx, { id: form.values[options.idName] ?? "", status });
  } catch (error) {
    return failedReply(error, form.values, { headers: bo.headers, fields: () => false });
  }
  const url = new URL(request.url);
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers, options.messages?.[status]);
}

/**
 * The domain schema's messages for an input, without running the use case
 * (to show every field's problem at once when the upload already failed).
 */
export function schemaErrors(schema: { safeParse(input: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  const errors: Record<string, string[]> = {};
  if (result.success || !result.error) return errors;
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join(".") || "_form";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}
