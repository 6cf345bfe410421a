CREATE TABLE "event_seating" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"seat_map_id" uuid NOT NULL,
	"categories" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seat_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_date_id" uuid NOT NULL,
	"seat_guid" text NOT NULL,
	"state" text NOT NULL,
	"section" text NOT NULL,
	"row" text NOT NULL,
	"number" text NOT NULL,
	"order_id" uuid,
	"ticket_type_id" uuid,
	"hold_expires_at" timestamp with time zone,
	"reason" text,
	"blocked_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone,
	CONSTRAINT "seat_claims_state_check" CHECK ("seat_claims"."state" in ('held','sold','blocked','released')),
	CONSTRAINT "seat_claims_order_check" CHECK ("seat_claims"."state" not in ('held','sold') or ("seat_claims"."order_id" is not null and "seat_claims"."ticket_type_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "seat_maps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"plan" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "issued_products" ADD COLUMN "seat_guid" text;--> statement-breakpoint
ALTER TABLE "issued_products" ADD COLUMN "seat_section" text;--> statement-breakpoint
ALTER TABLE "issued_products" ADD COLUMN "seat_row" text;--> statement-breakpoint
ALTER TABLE "issued_products" ADD COLUMN "seat_number" text;--> statement-breakpoint
ALTER TABLE "event_seating" ADD CONSTRAINT "event_seating_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_seating" ADD CONSTRAINT "event_seating_seat_map_id_seat_maps_id_fk" FOREIGN KEY ("seat_map_id") REFERENCES "public"."seat_maps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_claims" ADD CONSTRAINT "seat_claims_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_claims" ADD CONSTRAINT "seat_claims_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_claims" ADD CONSTRAINT "seat_claims_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_claims" ADD CONSTRAINT "seat_claims_blocked_by_user_id_users_id_fk" FOREIGN KEY ("blocked_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_maps" ADD CONSTRAINT "seat_maps_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_seating_seat_map_idx" ON "event_seating" USING btree ("seat_map_id");--> statement-breakpoint
CREATE UNIQUE INDEX "seat_claims_live_key" ON "seat_claims" USING btree ("event_date_id","seat_guid") WHERE state <> 'released';--> statement-breakpoint
CREATE INDEX "seat_claims_order_idx" ON "seat_claims" USING btree ("order_id") WHERE order_id is not null;--> statement-breakpoint
CREATE INDEX "seat_maps_organization_idx" ON "seat_maps" USING btree ("organization_id");