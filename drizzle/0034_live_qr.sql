CREATE TABLE "event_live_qr" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean,
	"static_code_reveal_hours" integer DEFAULT 24 NOT NULL,
	"key_encrypted" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_live_qr_reveal_hours_check" CHECK ("event_live_qr"."static_code_reveal_hours" between 0 and 168)
);
--> statement-breakpoint
ALTER TABLE "door_scans" DROP CONSTRAINT "door_scans_outcome_check";--> statement-breakpoint
ALTER TABLE "event_live_qr" ADD CONSTRAINT "event_live_qr_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_scans" ADD CONSTRAINT "door_scans_outcome_check" CHECK ("door_scans"."outcome" in ('admitted','already_in','conflict','voided','other_event','other_date','wrong_place','expired_code','unknown'));