import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * An Apple Wallet device that asked for a pass's updates (PassKit web service,
 * docs/wallet.md). One row per device, pass type and serial; the push token is
 * what APNs needs to wake that device.
 */
export const walletDeviceRegistrations = pgTable(
  "wallet_device_registrations",
  {
    deviceLibraryId: text("device_library_id").notNull(),
    passTypeId: text("pass_type_id").notNull(),
    serialNumber: text("serial_number").notNull(),
    pushToken: text("push_token").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceLibraryId, t.passTypeId, t.serialNumber] }), index("wallet_device_registrations_serial_idx").on(t.serialNumber)],
);

/** A pass's update tag: when its ticket last changed in a way its holder's pass must show (voided, sent, resold). */
export const walletPassUpdates = pgTable("wallet_pass_updates", {
  serialNumber: text("serial_number").primaryKey(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull(),
});
