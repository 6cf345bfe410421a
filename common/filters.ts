import { DateTime } from "luxon";
import { TIME_ZONE } from "./dates";

/**
 * The back office's global filter state (decision 19): which organization,
 * user, event and event date every /organizacion page is looking at, plus
 * `opts.fromDate` (empty, or the date seven days ago). It lives in the URL
 * query, so a page can be shared and reloaded; this module is the pure
 * reducer and the URL encoding, browser-safe and without a clock of its own
 * (actions that need "today" carry `now`).
 */
export interface FilterOpts {
  /** `yyyy-MM-dd` (Buenos Aires) or "" for no lower bound. */
  fromDate: string;
}

export interface FilterState {
  organizationId: string;
  userId: string;
  eventId: string;
  eventDateId: string;
  opts: FilterOpts;
}

export type FilterValues = Omit<FilterState, "opts">;

export type FilterAction =
  | { type: "clear"; now: Date }
  | { type: "setOrganization"; organizationId: string }
  | { type: "setUser"; userId: string }
  | { type: "setEvent"; eventId: string }
  | { type: "setEventDate"; eventDateId: string }
  | { type: "toggleLastWeek"; now: Date }
  | { type: "setValues"; values: Partial<FilterValues> }
  | { type: "setOpts"; opts: Partial<FilterOpts> };

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The last-week filter's date: seven days before today, in Buenos Aires. */
export function lastWeekDate(now: Date): string {
  return DateTime.fromJSDate(now).setZone(TIME_ZONE).minus({ days: 7 }).toFormat("yyyy-MM-dd");
}

/** Defaults: nothing picked, and the event-list window starting seven days before today. */
export function defaultFilters(now: Date): FilterState {
  return { organizationId: "", userId: "", eventId: "", eventDateId: "", opts: { fromDate: lastWeekDate(now) } };
}

export function filtersReducer(state: FilterState, action: FilterAction): FilterState {
  switch (action.type) {
    case "clear":
      return defaultFilters(action.now);
    case "setOrganization":
      return { ...state, organizationId: action.organizationId };
    case "setUser":
      return { ...state, userId: action.userId };
    case "setEvent":
      return { ...state, eventId: action.eventId };
    case "setEventDate":
      return { ...state, eventDateId: action.eventDateId };
    case "toggleLastWeek":
      return { ...state, opts: { ...state.opts, fromDate: state.opts.fromDate ? "" : lastWeekDate(action.now) } };
    case "setValues": {
      const values: Partial<FilterValues> = {};
      for (const key of ["organizationId", "userId", "eventId", "eventDateId"] as const) {
        if (action.values[key] !== undefined) values[key] = action.values[key];
      }
      return { ...state, ...values };
    }
    case "setOpts":
      return { ...state, opts: { ...state.opts, ...action.opts } };
    default:
      return state;
  }
}

/**
 * The state as URL query. Empty ids are left out. `fromDate` is left out when
 * it is the default for `now` (so everyday links stay clean and a reload
 * tomorrow still means "the last week"), and written as `fromDate=` when it
 * was cleared (no lower bound).
 */
export function toSearchParams(state: FilterState, now?: Date): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ["organizationId", "userId", "eventId", "eventDateId"] as const) {
    if (state[key]) params.set(key, state[key]);
  }
  if (!now || state.opts.fromDate !== lastWeekDate(now)) params.set("fromDate", state.opts.fromDate);
  return params;
}

/** Reads the state back from a URL query; unknown or malformed values fall back to the defaults. */
export function fromSearchParams(params: URLSearchParams, now: Date): FilterState {
  const state = defaultFilters(now);
  for (const key of ["organizationId", "userId", "eventId", "eventDateId"] as const) {
    const value = params.get(key)?.trim() ?? "";
    if (/^[0-9a-zA-Z-]{1,64}$/.test(value)) state[key] = value;
  }
  if (params.has("fromDate")) {
    const value = params.get("fromDate")?.trim() ?? "";
    if (value === "" || (DATE_PATTERN.test(value) && DateTime.fromISO(value).isValid)) state.opts.fromDate = value;
  }
  return state;
}

/** `?organizationId=…&…` for a link that keeps the filters ("" when there is nothing to keep). */
export function filterQuery(state: FilterState, now?: Date, extra: Record<string, string> = {}): string {
  const params = toSearchParams(state, now);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** `fromDate` as the instant it starts in Buenos Aires, or null for no lower bound. */
export function fromDateStart(fromDate: string): Date | null {
  if (!fromDate) return null;
  const dt = DateTime.fromISO(fromDate, { zone: TIME_ZONE });
  return dt.isValid ? dt.startOf("day").toJSDate() : null;
}
