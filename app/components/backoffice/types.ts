import type { FilterState } from "#common/filters";

/** The capabilities of the member's role (server/organizations/permissions.ts), as plain flags for the UI. */
/** The capabilities of server/organizations/permissions.ts (capabilitiesOf in app/lib/backoffice.server.ts does not compile if one is missing). */
export type Capabilities = Record<
  | "organization:manage"
  | "members:manage"
  | "money:manage"
  | "events:manage"
  | "sales:read"
  | "door:pins"
  | "door:undo"
  | "door:operate"
  | "pixel:manage"
  | "campaigns:manage"
  | "emails:read"
  | "promoters:manage"
  | "promoters:sell"
  | "audit:read",
  boolean
>;

export type SnackbarMessage = { type: "success" | "error"; message: string };

/**
 * What a back-office action answers when it does not redirect: what the
 * person typed (by input name), messages per field (by the domain's key,
 * `dates.0.endsAt`), messages for the whole form, the snackbar, and which
 * form of the page it is about (pages with several forms).
 */
export interface FormReply {
  values: Record<string, string>;
  errors: Record<string, string[]>;
  formErrors: string[];
  snackbar: SnackbarMessage | null;
  target: string | null;
}

export interface ShellOrganization {
  id: string;
  name: string;
  slug: string;
  role: string;
}

/** The back-office shell's loader data (app/routes/organizacion.tsx). */
export interface ShellData {
  organizations: ShellOrganization[];
  organization: { id: string; name: string; slug: string } | null;
  roleLabel: string | null;
  can: Capabilities;
  filters: FilterState;
  /** The filters as written in links (default organization and window left out). */
  linkFilters: FilterState;
  /** `?…` to keep the filters in links ("" when there is nothing to keep). */
  query: string;
  /** The server's "now", so the browser computes the same defaults. */
  now: string;
  events: { id: string; name: string; slug: string; firstDate: string | null }[];
  dates: { id: string; label: string }[];
}
