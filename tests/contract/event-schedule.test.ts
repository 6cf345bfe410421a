import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { createEventWithTickets } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const SAVE = /* GraphQL */ `
  mutation SaveEventSchedule($input: SaveEventScheduleInput!) {
    saveEventSchedule(input: $input) { dates { id action status } ticketTypes { id action status } }
  }
`;

type Changes = { saveEventSchedule: { dates: { id: string; action: string; status: string }[]; ticketTypes: { id: string; action: string; status: string }[] } };

describe("saveEventSchedule over GraphQL", () => {
  it("answers the spec's change actions and date statuses per row; a bad row is BAD_USER_INPUT with its path; strangers are FORBIDDEN", async () => {
    const { user, event, date, tickets } = await createEventWithTickets();
    const tokens = await startSession(await getDb(), { ...user, roles: ["producer"] }, new Date());
    const saved = await gql<Changes>(SAVE, {
      tokens,
      variables: {
        input: {
          eventId: event.id,
          dates: [{ id: date.id, startsAt: new Date(date.startsAt.getTime() + 3600_000).toISOString(), endsAt: date.endsAt.toISOString() }, { startsAt: "2030-03-01T21:00", endsAt: "2030-03-02T03:00" }],
          ticketTypes: [{ id: tickets.General.id, name: "General", price: 1_500_000, stock: 100 }, { name: "Campo", price: 900_000, stock: 300 }],
        },
      },
    });
    expect(saved.body.errors).toBeUndefined();
    expect(saved.body.data!.saveEventSchedule.dates.map(({ action, status }) => ({ action, status }))).toEqual([
      { action: "update", status: "modified" },
      { action: "create", status: "created" },
    ]);
    expect(saved.body.data!.saveEventSchedule.ticketTypes.map(({ action, status }) => ({ action, status }))).toEqual([
      { action: "no_update", status: "active" },
      { action: "create", status: "active" },
    ]);

    const bad = await gql(SAVE, { tokens, variables: { input: { eventId: event.id, dates: [{ startsAt: "2030-03-01T21:00", endsAt: "2030-03-01T20:00" }] } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(bad.body.errors![0].extensions!.fieldErrors).toHaveProperty(["dates.0.endsAt"]);

    const stranger = await createEventWithTickets();
    const strangerTokens = await startSession(await getDb(), { ...stranger.user, roles: ["producer"] }, new Date());
    expect(errorCode(await gql(SAVE, { tokens: strangerTokens, variables: { input: { eventId: event.id, dates: [] } } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(SAVE, { variables: { input: { eventId: event.id } } }))).toBe("UNAUTHENTICATED");
  });
});
