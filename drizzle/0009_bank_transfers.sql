CREATE TABLE "bank_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"bank_name" text NOT NULL,
	"cbu" text NOT NULL,
	"alias" text,
	"holder_name" text NOT NULL,
	"holder_cuit" text NOT NULL,
	"for_ticket_transfers" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "bank_accounts_cbu_check" CHECK ("bank_accounts"."cbu" ~ '^[0-9]{22}$'),
	CONSTRAINT "bank_accounts_cuit_check" CHECK ("bank_accounts"."holder_cuit" ~ '^[0-9]{11}$')
);
--> statement-breakpoint
CREATE TABLE "bank_transfer_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"billing_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"file" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"original_name" text NOT NULL,
	"uploaded_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"replaced_at" timestamp with time zone,
	CONSTRAINT "bank_transfer_receipts_type_check" CHECK ("bank_transfer_receipts"."content_type" in ('application/pdf','image/jpeg','image/png'))
);
--> statement-breakpoint
CREATE TABLE "bank_transfer_reviews" (
	"billing_id" uuid PRIMARY KEY NOT NULL,
	"decision" text NOT NULL,
	"reason" text,
	"reviewed_by_user_id" uuid,
	"reviewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_transfer_reviews_decision_check" CHECK ("bank_transfer_reviews"."decision" in ('approved','rejected'))
);
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfer_receipts" ADD CONSTRAINT "bank_transfer_receipts_billing_id_billings_id_fk" FOREIGN KEY ("billing_id") REFERENCES "public"."billings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfer_receipts" ADD CONSTRAINT "bank_transfer_receipts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfer_receipts" ADD CONSTRAINT "bank_transfer_receipts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfer_receipts" ADD CONSTRAINT "bank_transfer_receipts_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfer_reviews" ADD CONSTRAINT "bank_transfer_reviews_billing_id_billings_id_fk" FOREIGN KEY ("billing_id") REFERENCES "public"."billings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfer_reviews" ADD CONSTRAINT "bank_transfer_reviews_reviewed_by_user_id_users_id_fk" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_accounts_organization_idx" ON "bank_accounts" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_org_cbu_key" ON "bank_accounts" USING btree ("organization_id","cbu") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_org_tickets_key" ON "bank_accounts" USING btree ("organization_id") WHERE for_ticket_transfers and deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_transfer_receipts_current_key" ON "bank_transfer_receipts" USING btree ("billing_id") WHERE replaced_at is null;--> statement-breakpoint
CREATE INDEX "bank_transfer_receipts_org_idx" ON "bank_transfer_receipts" USING btree ("organization_id","created_at");