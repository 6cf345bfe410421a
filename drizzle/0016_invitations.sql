CREATE TABLE "giveaway_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"giveaway_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"document_number" text NOT NULL,
	"qty" integer NOT NULL,
	"ticket_type_id" uuid,
	"ticket_type_name" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"order_id" uuid,
	CONSTRAINT "giveaway_rows_status_check" CHECK ("giveaway_rows"."status" in ('invalid','ready','sent','skipped','failed'))
);
--> statement-breakpoint
CREATE TABLE "giveaways" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_date_id" uuid,
	"file_name" text NOT NULL,
	"status" text DEFAULT 'preview' NOT NULL,
	"total_rows" integer NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "giveaways_status_check" CHECK ("giveaways"."status" in ('preview','sending','done'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "invited_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "giveaway_rows" ADD CONSTRAINT "giveaway_rows_giveaway_id_giveaways_id_fk" FOREIGN KEY ("giveaway_id") REFERENCES "public"."giveaways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giveaway_rows" ADD CONSTRAINT "giveaway_rows_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giveaway_rows" ADD CONSTRAINT "giveaway_rows_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giveaways" ADD CONSTRAINT "giveaways_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giveaways" ADD CONSTRAINT "giveaways_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giveaways" ADD CONSTRAINT "giveaways_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giveaways" ADD CONSTRAINT "giveaways_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "giveaway_rows_line_key" ON "giveaway_rows" USING btree ("giveaway_id","line");--> statement-breakpoint
CREATE INDEX "giveaway_rows_pending_idx" ON "giveaway_rows" USING btree ("giveaway_id","line") WHERE status = 'ready';--> statement-breakpoint
CREATE INDEX "giveaways_event_idx" ON "giveaways" USING btree ("event_id","created_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_invited_by_user_id_users_id_fk" FOREIGN KEY ("invited_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_gift_key" ON "orders" USING btree ("event_id","gift_key") WHERE gift_key is not null;--> statement-breakpoint
CREATE INDEX "orders_gift_email_idx" ON "orders" USING btree (lower("payer"->>'email')) WHERE gift;