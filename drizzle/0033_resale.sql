CREATE TABLE "event_resale_settings" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"cap_bps" integer DEFAULT 10000 NOT NULL,
	"fee_bps" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_resale_settings_cap_check" CHECK ("event_resale_settings"."cap_bps" between 1 and 10000),
	CONSTRAINT "event_resale_settings_fee_check" CHECK ("event_resale_settings"."fee_bps" between 0 and 5000)
);
--> statement-breakpoint
CREATE TABLE "resale_listings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_date_id" uuid NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"issued_product_id" uuid NOT NULL,
	"seller_user_id" uuid NOT NULL,
	"seller_order_id" uuid NOT NULL,
	"seller_billing_id" uuid NOT NULL,
	"face_value" integer NOT NULL,
	"price" integer NOT NULL,
	"fee" integer DEFAULT 0 NOT NULL,
	"payout" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"held_by_order_id" uuid,
	"buyer_order_id" uuid,
	"payout_method" text,
	"payout_status" text DEFAULT 'none' NOT NULL,
	"payout_reference" text,
	"payout_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sold_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "resale_listings_status_check" CHECK ("resale_listings"."status" in ('active','held','sold','cancelled')),
	CONSTRAINT "resale_listings_amounts_check" CHECK ("resale_listings"."price" > 0 and "resale_listings"."price" <= "resale_listings"."face_value" and "resale_listings"."fee" >= 0 and "resale_listings"."payout" = "resale_listings"."price" - "resale_listings"."fee"),
	CONSTRAINT "resale_listings_payout_check" CHECK ("resale_listings"."payout_status" in ('none','pending','done','failed'))
);
--> statement-breakpoint
ALTER TABLE "event_resale_settings" ADD CONSTRAINT "event_resale_settings_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_issued_product_id_issued_products_id_fk" FOREIGN KEY ("issued_product_id") REFERENCES "public"."issued_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_seller_user_id_users_id_fk" FOREIGN KEY ("seller_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_seller_order_id_orders_id_fk" FOREIGN KEY ("seller_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_seller_billing_id_billings_id_fk" FOREIGN KEY ("seller_billing_id") REFERENCES "public"."billings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_held_by_order_id_orders_id_fk" FOREIGN KEY ("held_by_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_buyer_order_id_orders_id_fk" FOREIGN KEY ("buyer_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "resale_listings_live_ticket_key" ON "resale_listings" USING btree ("issued_product_id") WHERE status in ('active','held','sold');--> statement-breakpoint
CREATE UNIQUE INDEX "resale_listings_buyer_order_key" ON "resale_listings" USING btree ("buyer_order_id") WHERE buyer_order_id is not null;--> statement-breakpoint
CREATE INDEX "resale_listings_event_idx" ON "resale_listings" USING btree ("event_id","status");--> statement-breakpoint
CREATE INDEX "resale_listings_held_idx" ON "resale_listings" USING btree ("held_by_order_id") WHERE held_by_order_id is not null;--> statement-breakpoint
CREATE INDEX "resale_listings_seller_idx" ON "resale_listings" USING btree ("seller_user_id");--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('payment','service_fee','refund','service_fee_refund','chargeback','withdrawal','withdrawal_reversal','direct_collection','direct_refund','resale_payout','resale_payout_direct'));
