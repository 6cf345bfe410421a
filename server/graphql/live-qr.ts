import { builder } from "./builder";
import { given } from "./scalars";
import * as liveQr from "#server/door/live-qr";
import type { LiveQrSettings } from "#server/door/live-qr";

/** The live QR ("QR dinámico", docs/door.md, decisions 207 and 208): `Event.liveQr` and `setEventLiveQr`. */
export const EventLiveQr = builder.objectRef<LiveQrSettings>("EventLiveQr").implement({
  description: "The event's live QR: tickets show a code that changes every 15 seconds (TLQ1.<ticketRef>.<8 TOTP digits>), so a screenshot does not get in.",
  fields: (t) => ({
    enabled: t.exposeBoolean("enabled", { nullable: false, description: "Whether tickets show the live code (the organizer's choice, or the default)." }),
    chosen: t.exposeBoolean("chosen", { nullable: false, description: "The organizer chose; false: the default applies." }),
    defaultEnabled: t.exposeBoolean("defaultEnabled", {
      nullable: false,
      description: "The default: on for events with named tickets, a per-account limit, or resale allowed by an explicit setting (setEventResale).",
    }),
    staticCodeRevealHours: t.exposeInt("staticCodeRevealHours", {
      nullable: false,
      description: "Hours before each date's opening from which the ticket's static code (PDF, Apple Wallet, no JavaScript) is admitted at the door (0–168, default 24).",
    }),
  }),
});

const SetEventLiveQrInput = builder.inputType("SetEventLiveQrInput", {
  fields: (t) => ({
    eventId: t.id({ required: true }),
    enabled: t.boolean({ required: true }),
    staticCodeRevealHours: t.int({ required: true, description: "0–168 hours before the opening." }),
  }),
});

builder.mutationFields((t) => ({
  setEventLiveQr: t.field({
    type: EventLiveQr,
    nullable: false,
    description: "Turns the event's live QR on or off and sets from how many hours before the opening its static codes are admitted. Needs events:manage. BAD_USER_INPUT (field staticCodeRevealHours) outside 0–168.",
    args: { input: t.arg({ type: SetEventLiveQrInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => liveQr.setEventLiveQr(ctx, given({ ...input, eventId: String(input.eventId) })),
  }),
}));
