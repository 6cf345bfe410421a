CREATE TABLE "door_pins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"pin_encrypted" text NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "door_scans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scan_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"event_date_id" uuid,
	"issued_product_id" uuid,
	"outcome" text NOT NULL,
	"door" text NOT NULL,
	"device_id" text NOT NULL,
	"user_id" uuid,
	"pin_session_id" text,
	"offline" boolean DEFAULT false NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "door_scans_outcome_check" CHECK ("door_scans"."outcome" in ('admitted','already_in','conflict','voided','other_event','other_date','unknown'))
);
--> statement-breakpoint
ALTER TABLE "issued_products" ADD COLUMN "redeemed_door" text;--> statement-breakpoint
ALTER TABLE "door_pins" ADD CONSTRAINT "door_pins_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_pins" ADD CONSTRAINT "door_pins_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_scans" ADD CONSTRAINT "door_scans_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_scans" ADD CONSTRAINT "door_scans_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_scans" ADD CONSTRAINT "door_scans_issued_product_id_issued_products_id_fk" FOREIGN KEY ("issued_product_id") REFERENCES "public"."issued_products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_scans" ADD CONSTRAINT "door_scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "door_pins_event_key" ON "door_pins" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "door_scans_scan_id_key" ON "door_scans" USING btree ("scan_id");--> statement-breakpoint
CREATE INDEX "door_scans_event_idx" ON "door_scans" USING btree ("event_id","received_at");--> statement-breakpoint
CREATE INDEX "door_scans_issued_product_idx" ON "door_scans" USING btree ("issued_product_id");